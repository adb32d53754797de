import type { PendingHold, ResolvedHold } from '../backends/contract/index.js';
import type { ChatStyle } from './chat-style.js';
import { neutraliseTerminalText } from './neutralise-terminal-text.js';
import { shownToolName } from './shown-tool-name.js';

/** Time left until `deadline` as `m:ss` (or `h:mm:ss`), never negative. */
export function holdCountdown(deadline: string, now: number): string {
  const left = Math.max(0, Math.ceil((Date.parse(deadline) - now) / 1000));
  const hours = Math.floor(left / 3600);
  const minutes = Math.floor((left % 3600) / 60);
  const seconds = String(left % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** A deadline with its date and time zone, in the local zone: `2026-12-02 14:02:31 CET`. */
export function formatDeadline(deadline: string, timeZone?: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
    ...(timeZone ? { timeZone } : {}),
  }).formatToParts(new Date(deadline));
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((entry) => entry.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}:${part('second')} ${part('timeZoneName')}`;
}

/** The spinner's text while a hold waits: the countdown to its deadline. */
export function holdWaitText(hold: PendingHold, now: number): string {
  return `waiting for an operator to decide hold ${neutraliseTerminalText(hold.holdId)} · ${holdCountdown(hold.deadline, now)} left`;
}

/**
 * What the chat shows when a write is held: the tool, the rules that held it and why, the hold id
 * and deadline, and the operator commands that decide it. Text from the store is neutralised.
 */
export function describePendingHold(hold: PendingHold, style: ChatStyle): string {
  const text = neutraliseTerminalText;
  const rules = hold.ruleIds.length
    ? ` (${hold.ruleIds.length > 1 ? 'rules' : 'rule'} ${hold.ruleIds.map(text).join(', ')})`
    : '';
  const deadline = formatDeadline(hold.deadline);
  return [
    `${style.yellow('⏸')} ${style.bold(shownToolName(hold.toolName))} is held for an operator${rules}`,
    `  why: ${style.dim(text(hold.rationale))}`,
    `  hold ${text(hold.holdId)} · no decision by ${deadline} refuses it and stops the session`,
    `  approve: ${style.cyan(text(hold.commands.approve))}`,
    `  deny:    ${style.cyan(text(hold.commands.deny))}`,
    ...(hold.consoleUrl
      ? [`  console: ${style.link(style.cyan(text(hold.consoleUrl)), hold.consoleUrl)}`]
      : []),
  ].join('\n');
}

/** One line for how a hold ended: approved (the write runs), denied with the rationale, skipped, timed out. */
export function describeResolvedHold(hold: ResolvedHold, style: ChatStyle): string {
  const text = neutraliseTerminalText;
  const by = hold.decidedBy && hold.decidedBy !== 'novarch' ? ` by ${text(hold.decidedBy)}` : '';
  const why = hold.rationale ? `: ${text(hold.rationale)}` : '';
  const id = `hold ${text(hold.holdId)}`;
  switch (hold.status) {
    case 'approved':
      return `${style.green('✓')} ${id} approved${by}${why}; ${shownToolName(hold.toolName)} runs`;
    case 'denied':
      return `${style.yellow('⊘')} ${id} denied${by}${why}`;
    case 'skipped':
    case 'timed_out': {
      const ended = hold.status === 'skipped' ? `skipped${by}` : 'timed out';
      const stopped = hold.stopsSession ? '; the session is stopped' : '';
      return `${hold.stopsSession ? style.red('⊘') : style.yellow('⊘')} ${id} ${ended}${why}${stopped}`;
    }
  }
}

import { ABORTED_HOLD_RATIONALE, type HoldEvent, type HoldListener } from 'novarch';
import type { SessionEvent } from '../contract/index.js';

/** Quotes a word for a POSIX shell when it needs it, so a printed command can be pasted as is. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Novarch's hold event as the contract's session event; the commands name the store explicitly. */
export function toHoldSessionEvent(event: HoldEvent, storePath: string): SessionEvent {
  const { hold } = event;
  const callId = event.callId === undefined ? {} : { callId: event.callId };
  if (event.type === 'hold-pending') {
    // A governed run on a Novarch server names the server (the operator's NOVARCH_TOKEN decides).
    const server = /^https?:\/\//.test(storePath);
    const store = server ? `--server ${shellWord(storePath)}` : `--store ${shellWord(storePath)}`;
    const consoleUrl = server
      ? { consoleUrl: `${storePath.replace(/\/+$/, '')}/console/holds/${encodeURIComponent(hold.id)}` }
      : {};
    return {
      type: 'hold-pending',
      hold: {
        holdId: hold.id,
        ...callId,
        toolName: event.toolName,
        actionType: event.actionType,
        ruleIds: [...event.citations.ruleIds],
        rationale: event.citations.rationale,
        createdAt: hold.createdAt,
        deadline: hold.deadline,
        commands: {
          approve: `novarch holds approve ${shellWord(hold.id)} ${store}`,
          deny: `novarch holds deny ${shellWord(hold.id)} ${store} --rationale "…"`,
        },
        ...consoleUrl,
      },
    };
  }
  // A hold closed because its call was aborted (an interrupted turn) leaves the session open.
  const aborted = hold.status === 'timed_out' && hold.rationale === ABORTED_HOLD_RATIONALE;
  return {
    type: 'hold-resolved',
    hold: {
      holdId: hold.id,
      ...callId,
      toolName: event.toolName,
      // A hold the gate reports as resolved is never pending; `timed_out` is the fail-closed reading.
      status: hold.status === 'pending' ? 'timed_out' : hold.status,
      stopsSession:
        hold.status === 'skipped' || (hold.status !== 'approved' && hold.status !== 'denied' && !aborted),
      ...(hold.decidedBy === undefined ? {} : { decidedBy: hold.decidedBy }),
      ...(hold.rationale === undefined ? {} : { rationale: hold.rationale }),
    },
  };
}

/**
 * The `onHold` listener of one governed run, handed to the gate or governor, and the session
 * events it makes of holds for whoever watches (the session in flight pushes them into its turn).
 */
export class HoldReporter {
  private readonly watchers = new Set<(event: SessionEvent) => void>();

  constructor(private readonly storePath: string) {}

  readonly listener: HoldListener = (event) => {
    const sessionEvent = toHoldSessionEvent(event, this.storePath);
    for (const watcher of this.watchers) watcher(sessionEvent);
  };

  /** Calls `watcher` with every hold event until the returned function is called. */
  watch(watcher: (event: SessionEvent) => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }
}

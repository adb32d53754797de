import { neutraliseTerminalText } from '../chat/neutralise-terminal-text.js';
import { describeChanges } from './candidate.js';
import type { OptimizeOutcome } from './optimize-agent.js';
import type { TrialLine } from './trials-file.js';

/** The colours the summary uses (identity functions without colour). */
export interface OptimizeStyle {
  green: (text: string) => string;
  red: (text: string) => string;
  yellow: (text: string) => string;
  dim: (text: string) => string;
  bold: (text: string) => string;
}

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

/** One line per trial: `t2  proposer  instructions (212 chars)  83.3%  accepted: …`. */
export function formatTrial(line: TrialLine, style: OptimizeStyle): string {
  const verdict = line.decision
    ? line.decision.accepted
      ? style.green(`accepted (${line.decision.code})`)
      : style.red(`rejected (${line.decision.code})`)
    : style.dim('baseline');
  const message = line.decision ? `: ${line.decision.message}` : '';
  return `${line.candidate.id.padEnd(4)} ${line.candidate.origin.padEnd(17)} pass ${percent(line.evaluation.pass_rate).padStart(6)}  ${verdict}${message}\n       ${style.dim(describeChanges(line.candidate.changes))}`;
}

const STOPPED: Record<string, string> = {
  exhausted: 'every planned candidate was tried',
  'max-trials': 'the trial budget (--max-trials) was used up',
  'max-cost': 'the cost budget (--max-cost) was reached',
  'max-time': 'the time budget (--max-time) ran out',
  interrupted: 'interrupted: continue with --resume',
};

/** The summary `holodeck test optimize` prints at the end. */
export function renderOptimization(outcome: OptimizeOutcome, style: OptimizeStyle): string {
  const { start } = outcome;
  const lines = [
    style.bold(`optimization ${outcome.id}`),
    `split     ${start.split.train.length} train, ${start.split.holdout.length} holdout cases (stratified by tag, seed ${start.split.seed}); ${start.settings.repeats} attempt(s) per case`,
    `baseline  train pass rate ${percent(outcome.baseline.evaluation.pass_rate)}`,
    `trials    ${outcome.trials.length}; stopped: ${STOPPED[outcome.finish.stopped] ?? outcome.finish.stopped}`,
    `spent     $${outcome.spentUsd.toFixed(4)} on agent runs and judges (proposer calls not counted)`,
  ];
  if (!outcome.winner)
    lines.push(
      style.yellow('result    no candidate was better than agent.yaml beyond noise; nothing written'),
    );
  else {
    const winner = outcome.winner;
    lines.push(
      style.green(
        `winner    ${winner.candidate.id}: ${describeChanges(winner.candidate.changes)} (${winner.decision?.message ?? ''})`,
      ),
    );
    if (winner.candidate.rationale)
      lines.push(`          ${style.dim(neutraliseTerminalText(winner.candidate.rationale))}`);
    if (outcome.holdout)
      lines.push(
        `holdout   ${outcome.holdout.agrees ? style.green(outcome.holdout.message) : style.red(outcome.holdout.message)}`,
      );
    else
      lines.push(
        style.yellow(
          start.split.holdout.length
            ? 'holdout   not confirmed: the search stopped before the holdout ran'
            : 'holdout   none (no holdout cases): not confirmed',
        ),
      );
    if (outcome.optimized)
      lines.push(`written   ${outcome.optimized.file}\n          diff: ${outcome.optimized.diffFile}`);
  }
  lines.push(style.dim(`trials    ${outcome.trialsFile}`));
  return `${lines.join('\n')}\n`;
}

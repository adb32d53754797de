import { neutraliseTerminalText } from '../chat/neutralise-terminal-text.js';
import { describeChanges } from './candidate.js';
import { formatTrial, type OptimizeStyle } from './render-optimization.js';
import type { OptimizeEvent } from './run-optimization.js';

/** Where progress goes (stderr). */
export interface ProgressStream {
  write(text: string): unknown;
}

/**
 * Progress of `holodeck test optimize`: on a terminal a status line rewritten in place (the trial,
 * its cases done) above the finished trials; elsewhere (logs, pipes) plain lines only, one per
 * evaluation started, trial judged, proposal skipped and holdout run.
 */
export function optimizeProgress(
  stream: ProgressStream,
  options: { interactive: boolean; style: OptimizeStyle },
): { onEvent: (event: OptimizeEvent) => void; finish: () => void } {
  const { style, interactive } = options;
  let status = '';
  let done = 0;
  let total = 0;
  let label = '';
  const clear = () => {
    if (interactive && status) stream.write('\r\u001b[2K');
    status = '';
  };
  const show = () => {
    if (!interactive) return;
    status = `${label}: ${done}/${total} cases`;
    stream.write(`\r\u001b[2K${style.dim(status)}`);
  };
  const line = (text: string) => {
    clear();
    stream.write(`${text}\n`);
    show();
  };
  return {
    onEvent(event) {
      switch (event.type) {
        case 'evaluation-started':
          label = event.label;
          done = 0;
          total = event.cases;
          if (!interactive)
            line(
              `${event.label}: ${event.split} ${event.cases} cases × ${event.attempts / Math.max(1, event.cases)}  ${describeChanges(event.candidate.changes)}`,
            );
          else show();
          break;
        case 'case-finished':
          done += 1;
          show();
          break;
        case 'trial-finished':
          label = '';
          clear();
          stream.write(`${formatTrial(event.line, style)}\n`);
          break;
        case 'skipped':
          line(style.yellow(`skipped  ${neutraliseTerminalText(event.reason)}`));
          break;
        case 'holdout-finished':
          line(`holdout  ${event.line.message}`);
          break;
        case 'note':
          line(`${style.yellow('note')} ${event.message}`);
          break;
      }
    },
    finish: clear,
  };
}

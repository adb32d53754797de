import type { Style } from './terminal-style.js';

/**
 * Colours a hold status, verdict kind or kill marker: green goes on, yellow waits, red stops (a
 * pending hold nothing waits on is red: no decision will run it).
 */
export function paintStatus(style: Style, text: string): string {
  switch (text.trim()) {
    case 'approved':
    case 'pass':
      return style.green(text);
    case 'pending':
    case 'pending (waiting)':
    case 'hold':
      return style.yellow(text);
    case 'pending (abandoned)':
    case 'pending (expired)':
    case 'denied':
    case 'skipped':
    case 'timed_out':
    case 'kill':
    case 'killed':
      return style.red(text);
    default:
      return text;
  }
}

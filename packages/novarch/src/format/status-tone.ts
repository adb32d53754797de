import type { Tone } from './styled-text.js';

/**
 * The tone of a hold status, verdict kind or kill marker: green goes on, yellow waits, red stops (a
 * pending hold nothing waits on is red: no decision will run it).
 */
export function statusTone(text: string): Tone | undefined {
  switch (text.trim()) {
    case 'approved':
    case 'pass':
      return 'green';
    case 'pending':
    case 'pending (waiting)':
    case 'hold':
      return 'yellow';
    case 'pending (abandoned)':
    case 'pending (expired)':
    case 'denied':
    case 'skipped':
    case 'timed_out':
    case 'kill':
    case 'killed':
      return 'red';
    default:
      return undefined;
  }
}

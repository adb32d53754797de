import type { Citations, HoldRecord } from '../model/records.js';

// No Claude Agent SDK import here: the tool governor uses this too and must stay framework-neutral.

/**
 * What the hook gate and the tool governor report about a held write, as it happens:
 * - `hold-pending`: the write waits for an operator (`hold.id`, `hold.deadline`); the judge's
 *   citations say which rules held it;
 * - `hold-resolved`: the wait ended (`hold.status`: approved, denied, skipped or timed_out, with
 *   who decided and their rationale). An approved write still runs only if its release succeeds.
 */
export type HoldEvent =
  | {
      type: 'hold-pending';
      hold: HoldRecord;
      toolName: string;
      actionType: string;
      /** The tool call's id, when the runtime gives one (the hook gate always does). */
      callId?: string;
      citations: Citations;
    }
  | {
      type: 'hold-resolved';
      hold: HoldRecord;
      toolName: string;
      actionType: string;
      callId?: string;
    };

/** Told about holds as they are created and decided (e.g. to show them in a chat). */
export type HoldListener = (event: HoldEvent) => void;

/** Tells the listener; a listener that throws changes nothing: it reports, it never decides. */
export function notifyHold(listener: HoldListener | undefined, event: HoldEvent): void {
  if (!listener) return;
  try {
    listener(event);
  } catch {
    // A failing reporter must not turn a hold into a pass or a refusal.
  }
}

import { isRecord } from '../support.js';
// The rationale of a write, shared by the hook gate and the tool governor: nothing here knows an
// agent framework (the governor must not reach the Claude Agent SDK).

/** At most this much of the model's text is kept as a write's rationale: its end, nearest the call. */
export const MAX_RATIONALE_CHARS = 4_000;

/**
 * A write's rationale, as the action (and its hold) carries it: the tool input's `reasoning` field
 * when the tool has one, else the text the model wrote before the call in the same message (what
 * it said it was about to do), trimmed and cut to its last `MAX_RATIONALE_CHARS`. Undefined when
 * neither says anything.
 */
export function rationaleOf(input: unknown, modelText: string | undefined): string | undefined {
  if (isRecord(input) && typeof input.reasoning === 'string' && input.reasoning.trim() !== '')
    return input.reasoning;
  const text = modelText?.trim();
  if (!text) return undefined;
  return text.length > MAX_RATIONALE_CHARS ? `…${text.slice(-MAX_RATIONALE_CHARS)}` : text;
}

const UNIT_MS: Readonly<Record<string, number>> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** The longest window a history call may look back. */
export const MAX_HISTORY_WINDOW_MS = 90 * 86_400_000;

/** `'24h'` → milliseconds, or why it is not a window (a message for the rule's author). */
export function parseHistoryWindow(text: string): { ok: true; ms: number } | { ok: false; message: string } {
  const match = /^([1-9]\d{0,5})([smhd])$/.exec(text);
  const factor = match?.[2] === undefined ? undefined : UNIT_MS[match[2]];
  if (match === null || factor === undefined) {
    return {
      ok: false,
      message: `unknown window ${JSON.stringify(text)}: a window is a whole number and a unit, s, m, h or d (e.g. '30m', '24h', '7d')`,
    };
  }
  const ms = Number(match[1]) * factor;
  if (ms > MAX_HISTORY_WINDOW_MS)
    return { ok: false, message: `window ${JSON.stringify(text)} is longer than the longest one, '90d'` };
  return { ok: true, ms };
}

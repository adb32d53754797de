/** Formats a duration for people: `0.4 s`, `12.3 s`, `2 min 05 s`, `1 h 02 min`. */
export function formatDuration(milliseconds: number): string {
  if (milliseconds < 59_950) return `${(Math.max(0, milliseconds) / 1000).toFixed(1)} s`;
  const totalSeconds = Math.round(milliseconds / 1000);
  const minutes = Math.floor(totalSeconds / 60);
  if (minutes < 60) return `${minutes} min ${pad2(totalSeconds % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${pad2(minutes % 60)} min`;
}

/** A metric score or threshold with at most three decimals: `0.41`, `0.6`, `1`. */
export function formatScore(score: number): string {
  return String(Math.round(score * 1000) / 1000);
}

/** A fraction in [0, 1] as a percentage with at most one decimal: `66.7%`, `100%`. */
export function formatPercent(fraction: number): string {
  return `${Math.round(fraction * 1000) / 10}%`;
}

/** A token count with thousands separators: `12,345`. */
export function formatTokens(count: number): string {
  return count.toLocaleString('en-US');
}

/** A cost in US dollars: `$0`, `$0.0123`, `$4.20`. */
export function formatCost(usd: number | null): string {
  if (usd === null) return 'unknown';
  if (usd === 0) return '$0';
  return `$${usd.toFixed(usd < 1 ? 4 : 2)}`;
}

/**
 * A run's cost for its summary line: `$0.0123 ($0.0041 per passed case)`, `$0.0123` when no case
 * passed, `cost unknown (ollama runs … on your own machine …)` with the reason when it is unknown.
 */
export function describeRunCost(summary: {
  cost_usd: number | null;
  passed: number;
  cost_unknown_reason?: string;
}): string {
  if (summary.cost_usd === null)
    return `cost unknown${summary.cost_unknown_reason ? ` (${summary.cost_unknown_reason})` : ''}`;
  const perPassed =
    summary.passed > 0 ? ` (${formatCost(summary.cost_usd / summary.passed)} per passed case)` : '';
  return `${formatCost(summary.cost_usd)}${perPassed}`;
}

/** A signed difference: `+0.12`, `-0.3`, `0`. */
export function formatDelta(delta: number): string {
  const rounded = Math.round(delta * 1000) / 1000;
  return rounded > 0 ? `+${rounded}` : String(rounded === 0 ? 0 : rounded);
}

function pad2(value: number): string {
  return String(value).padStart(2, '0');
}

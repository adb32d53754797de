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

/** The cost figures of a run summary that describeRunCost reads. */
export interface RunCostFigures {
  cost_usd: number | null;
  passed: number;
  cost_unknown_reason?: string;
  judge_cost_usd?: number | null;
  judge_cost_unknown_reason?: string;
  judge_calls?: { billed: number; cached: number };
  total_cost_usd?: number | null;
}

/**
 * A run's cost for its summary line: `$0.0123 ($0.0041 per passed case)`, `$0.0123` when no case
 * passed, `cost unknown (ollama runs … on your own machine …)` with the reason when it is unknown.
 * When the judge was called: `agent $0.0123 (…) · judge $0.0020 (6 calls, 2 cached) · total $0.0143`.
 */
export function describeRunCost(summary: RunCostFigures): string {
  const unknown = (reason: string | undefined) => `cost unknown${reason ? ` (${reason})` : ''}`;
  const perPassed =
    summary.cost_usd !== null && summary.passed > 0
      ? ` (${formatCost(summary.cost_usd / summary.passed)} per passed case)`
      : '';
  const agent =
    summary.cost_usd === null
      ? unknown(summary.cost_unknown_reason)
      : `${formatCost(summary.cost_usd)}${perPassed}`;
  const calls = summary.judge_calls;
  if (calls === undefined || summary.judge_cost_usd === undefined || calls.billed + calls.cached === 0)
    return agent;
  const counted = `${calls.billed + calls.cached} ${calls.billed + calls.cached === 1 ? 'call' : 'calls'}${calls.cached ? `, ${calls.cached} cached` : ''}`;
  const judge =
    summary.judge_cost_usd === null
      ? `${unknown(summary.judge_cost_unknown_reason)} (${counted})`
      : `${formatCost(summary.judge_cost_usd)} (${counted})`;
  return `agent ${agent} · judge ${judge} · total ${formatCost(summary.total_cost_usd ?? null)}`;
}

/** A signed difference: `+0.12`, `-0.3`, `0`. */
export function formatDelta(delta: number): string {
  const rounded = Math.round(delta * 1000) / 1000;
  return rounded > 0 ? `+${rounded}` : String(rounded === 0 ? 0 : rounded);
}

function pad2(value: number): string {
  return String(value).padStart(2, '0');
}

import type { ViewTokens } from '../view-data.js';

// One precision per kind of number, on every page, so a column of them lines up and reads the
// same as the terminal summary (runner/report/format-units.ts, which the browser bundle cannot
// import): percentages with one decimal, scores with two, costs with four, durations in seconds
// with one decimal below a minute, counts with thousands separators.

/** `82.0%`, `8.5%`, `100.0%`: always one decimal. */
export function percent(fraction: number): string {
  return `${(fraction * 100).toFixed(1)}%`;
}

/** `[21%, 94%] at 95%`: a pass-rate interval naming its confidence level. */
export function interval(range: { lower: number; upper: number; confidence: number }): string {
  return `[${percent(range.lower)}, ${percent(range.upper)}] at ${percent(range.confidence)}`;
}

/** `2/3 passed, [21%, 94%] at 95%` or `1/1 passed, one attempt: no interval`. */
export function attemptsWithInterval(
  passed: number,
  finished: number,
  range: { lower: number; upper: number; confidence: number } | null | undefined,
): string {
  const spread = range ? `, ${interval(range)}` : finished === 1 ? ', one attempt: no interval' : '';
  return `${passed}/${finished} passed${spread}`;
}

/** A score in [0, 1] with two decimals. */
export function score(value: number): string {
  return value.toFixed(2);
}

const COST_FORMAT = new Intl.NumberFormat('en-US', { minimumFractionDigits: 4, maximumFractionDigits: 4 });

/** `$0.0063`, `$1.2500`, `$1,234.5000`: four decimals, separators; `unknown` when the backend could not know it. */
export function cost(usd: number | null | undefined): string {
  if (usd === null || usd === undefined) return 'unknown';
  return `$${COST_FORMAT.format(usd)}`;
}

/** A signed difference of costs, `+$0.0012`. */
export function costDelta(current: number | null, baseline: number | null): string {
  if (current === null || baseline === null) return 'unknown';
  const delta = current - baseline;
  return `${delta >= 0 ? '+' : '−'}${cost(Math.abs(delta))}`;
}

/** `0.9 s`, `12.3 s`, `2 min 05 s`, `1 h 02 min`: as the terminal summary writes them. */
export function duration(ms: number): string {
  if (ms < 59_950) return `${(Math.max(0, ms) / 1000).toFixed(1)} s`;
  const totalSeconds = Math.round(ms / 1000);
  const minutes = Math.floor(totalSeconds / 60);
  const pad = (value: number) => String(value).padStart(2, '0');
  if (minutes < 60) return `${minutes} min ${pad(totalSeconds % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${pad(minutes % 60)} min`;
}

/** A signed difference of durations, `+1.2 s`. */
export function durationDelta(current: number, baseline: number): string {
  const delta = current - baseline;
  return `${delta >= 0 ? '+' : '−'}${duration(Math.abs(delta))}`;
}

/** `1,234` */
export function count(value: number): string {
  return value.toLocaleString('en-US');
}

export function tokens(usage: ViewTokens): string {
  return count(usage.total_tokens);
}

/** `2026-11-30 01:02:03 UTC`: the same on every machine and in every report. */
export function dateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** The first 7 hex digits of `sha256:...` or of a commit id. */
export function shortHash(hash: string | null | undefined): string {
  if (!hash) return '—';
  return hash.replace(/^sha256:/, '').slice(0, 7);
}

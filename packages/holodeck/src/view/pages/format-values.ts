import type { ViewTokens } from '../view-data.js';

/** `82%` (whole percent, one decimal below 10%). */
export function percent(fraction: number): string {
  const value = fraction * 100;
  return `${value !== 0 && Math.abs(value) < 10 && !Number.isInteger(value) ? value.toFixed(1) : Math.round(value)}%`;
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

/** `$0.0063`, `$1.25`; `unknown` when the backend could not know it. */
export function cost(usd: number | null | undefined): string {
  if (usd === null || usd === undefined) return 'unknown';
  if (usd === 0) return '$0';
  return usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/** A signed difference of costs, `+$0.0012`. */
export function costDelta(current: number | null, baseline: number | null): string {
  if (current === null || baseline === null) return 'unknown';
  const delta = current - baseline;
  return `${delta >= 0 ? '+' : '−'}${cost(Math.abs(delta))}`;
}

/** `850 ms`, `12.3 s`, `2 min 5 s`. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
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

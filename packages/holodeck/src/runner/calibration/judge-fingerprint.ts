import { createHash } from 'node:crypto';
import type { LLMProvider, MetricConfig } from '../../config/index.js';

/** Settings of a metric that do not decide its verdict: a change of them leaves a calibration current. */
const NOT_DECIDING = new Set(['name', 'weight', 'calibration', 'min_kappa']);

/** JSON with sorted keys, so the same settings always hash the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** What decides a judge metric's verdict, as a plain record: the judge model and the metric's settings. */
export function decidingSettings(judge: LLMProvider, metric: MetricConfig): Record<string, unknown> {
  return {
    judge: {
      provider: judge.provider,
      name: judge.name,
      deployment: judge.deployment ?? null,
      temperature: judge.temperature ?? null,
    },
    metric: Object.fromEntries(Object.entries(metric).filter(([key]) => !NOT_DECIDING.has(key))),
  };
}

/**
 * `sha256:<hex>` of what decides a judge metric's verdict: the judge's provider, model, deployment
 * and sampling temperature, and every setting of the metric but its name, weight, labels file and
 * min_kappa (type, criteria, evaluation_steps, rubric, threshold, score_range, samples, strict_mode,
 * ...). A calibration made under another fingerprint is stale.
 */
export function judgeFingerprint(judge: LLMProvider, metric: MetricConfig): string {
  return `sha256:${createHash('sha256').update(canonical(decidingSettings(judge, metric))).digest('hex')}`;
}

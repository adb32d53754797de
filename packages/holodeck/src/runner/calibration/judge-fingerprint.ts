import { createHash } from 'node:crypto';
import type { AgentConfig, LLMProvider, MetricConfig } from '../../config/index.js';

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

/** The judge of an agent: `evaluations.model`, else the agent's model; repeats at evaluations.model.temperature only. */
export interface JudgeSettings {
  model: LLMProvider;
  samplingTemperature: number | undefined;
}

/** The judge settings of an agent.yaml. */
export function judgeSettingsOf(config: AgentConfig): JudgeSettings {
  const judge = config.evaluations?.model;
  return { model: judge ?? config.model, samplingTemperature: judge?.temperature };
}

/** What decides a judge metric's verdict, as a plain record: the judge model and the metric's settings. */
export function decidingSettings(judge: JudgeSettings, metric: MetricConfig): Record<string, unknown> {
  return {
    judge: {
      provider: judge.model.provider,
      name: judge.model.name,
      deployment: judge.model.deployment ?? null,
      temperature: judge.samplingTemperature ?? null,
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
export function judgeFingerprint(judge: JudgeSettings, metric: MetricConfig): string {
  return `sha256:${createHash('sha256')
    .update(canonical(decidingSettings(judge, metric)))
    .digest('hex')}`;
}

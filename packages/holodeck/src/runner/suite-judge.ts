import path from 'node:path';
import type { ConfigWarning, LoadedAgent } from '../config/index.js';
import { judgeClientFor } from '../evals/judge/index.js';
import type { MetricContext } from '../evals/metric.js';
import { type Recorder, SETUP_CASE, scopeOf } from '../recording/recorder.js';
import { errorMessage } from '../support.js';
import type { TrafficScope } from '../tools/run-traffic.js';
import { metricEmbeddings } from './metric-embeddings.js';
import type { PreparedCase } from './prepare-suite.js';

// The judge and embeddings a suite's metrics use, for a run and for `holodeck validate`.

/**
 * Warnings `holodeck validate` gives about the judge of judge metrics: its credentials missing
 * from this environment (validation often runs without secrets; `test` then stops), or settings
 * it cannot honour. The same model choice as the run's judge.
 */
export function judgeWarnings(agent: LoadedAgent, env?: Record<string, string>): ConfigWarning[] {
  const model = agent.config.evaluations?.model ?? agent.config.model;
  const warnings: ConfigWarning[] = [];
  const warn = (message: string) => warnings.push({ code: 'judge', message, file: agent.file });
  try {
    judgeClientFor(model, {
      env: env ?? agent.env,
      cacheDir: path.join(agent.directory, '.holodeck', 'cache', 'judge'),
      onWarning: warn,
      settingsPath: agent.config.evaluations?.model ? 'evaluations.model' : 'model',
    });
  } catch (error) {
    warn(`judge metrics: ${errorMessage(error)}`);
  }
  return warnings;
}

/** True when a metric of the cases embeds texts (similar). */
export function usesEmbeddings(cases: readonly PreparedCase[]): boolean {
  return cases.some((testCase) =>
    [...testCase.metrics, ...testCase.turnMetrics.flat()].some((metric) => metric.type === 'similar'),
  );
}

/**
 * The judge: `evaluations.model`, else the agent's own model; any provider, answers forced into a
 * schema. `fetch`: the recorder's, for a recorded attempt.
 */
function judgeFor(
  agent: LoadedAgent,
  options: { env?: Record<string, string>; onNotice?: (message: string) => void },
  fetch?: typeof globalThis.fetch,
) {
  const judgeModel = agent.config.evaluations?.model;
  return judgeClientFor(judgeModel ?? agent.config.model, {
    env: options.env ?? agent.env,
    // A recorded run asks every judge (a cached verdict would be missing from the recording).
    ...(fetch ? { fetch } : { cacheDir: path.join(agent.directory, '.holodeck', 'cache', 'judge') }),
    ...(options.onNotice ? { onWarning: options.onNotice } : {}),
    settingsPath: judgeModel ? 'evaluations.model' : 'model',
    samplingTemperature: judgeModel?.temperature,
  });
}

/** Gives the metric context of each attempt (by its recording scope; unrecorded: none). */
export type MetricContextOf = (scope?: TrafficScope) => MetricContext;

/**
 * The judge and embeddings of a suite's attempts. Unrecorded, every attempt shares one of each.
 * Recorded, each attempt gets its own, whose requests belong to it; one is made at once anyway,
 * so bad settings or missing credentials stop the run before it starts and warnings come once.
 */
export function suiteMetricContext(
  agent: LoadedAgent,
  uses: { judge: boolean; embeddings: boolean },
  options: { env?: Record<string, string>; onNotice?: (message: string) => void },
  recorder?: Recorder,
): MetricContextOf {
  const contextOf = (scope?: TrafficScope, notices = options): MetricContext => ({
    ...(uses.judge ? { judge: judgeFor(agent, notices, scope && recorder?.fetchIn(scope, 'judge')) } : {}),
    ...(uses.embeddings
      ? { embed: metricEmbeddings(agent, scope && recorder?.fetchIn(scope, 'embeddings')) }
      : {}),
  });
  // Recorded, a request outside any attempt is the setup scope's: never a live, cached one.
  const shared = contextOf(recorder ? scopeOf(SETUP_CASE) : undefined);
  if (!recorder) return () => shared;
  const quiet = { ...(options.env ? { env: options.env } : {}) };
  return (scope) => (scope ? contextOf(scope, quiet) : shared);
}

import path from 'node:path';
import type { ConfigWarning, LoadedAgent } from '../config/index.js';
import { judgeClientFor } from '../evals/judge/index.js';
import type { Recorder } from '../recording/recorder.js';
import { errorMessage } from '../support.js';
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

/** The judge: `evaluations.model`, else the agent's own model; any provider, answers forced into a schema. */
export function judgeFor(
  agent: LoadedAgent,
  options: { env?: Record<string, string>; onNotice?: (message: string) => void },
  recorder?: Recorder,
) {
  const judgeModel = agent.config.evaluations?.model;
  return judgeClientFor(judgeModel ?? agent.config.model, {
    env: options.env ?? agent.env,
    // A recorded run asks every judge (a cached verdict would be missing from the recording).
    ...(recorder
      ? { fetch: recorder.fetchFor('judge') }
      : { cacheDir: path.join(agent.directory, '.holodeck', 'cache', 'judge') }),
    ...(options.onNotice ? { onWarning: options.onNotice } : {}),
    settingsPath: judgeModel ? 'evaluations.model' : 'model',
    samplingTemperature: judgeModel?.temperature,
  });
}

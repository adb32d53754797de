import { stat } from 'node:fs/promises';
import type { MetricConfig } from '../../config/index.js';
import { HoloDeckError } from '../../errors.js';
import { loadUserModule } from '../../load-user-module.js';
import { errorMessage } from '../../support.js';
import { describeModuleLoadError, type ModuleLoadProblem } from '../../tools/index.js';
import type { Metric, MetricInput, MetricOutcome } from '../metric.js';
import { errorOutcome, metricName, scoredOutcome } from '../metric-outcome.js';

type CodeConfig = Extract<MetricConfig, { type: 'code' }>;

/** What a grader receives: the test case input, the response, tool calls and results, and more. */
export type GraderInput = MetricInput;
/** What a grader may return. */
export type GraderResult = boolean | number | { score: number; passed?: boolean; reason?: string };

/** The grader's second argument: `signal` aborts at the metric's `timeout` or when the attempt stops. */
export interface GraderOptions {
  signal: AbortSignal;
}

type Grader = (input: GraderInput, options: GraderOptions) => GraderResult | Promise<GraderResult>;

/**
 * A grader module could not be used: `field` says which setting of the metric is wrong (`file`
 * for a missing or broken module, `function` for a missing export); `problem` locates a load
 * error inside the module.
 */
export class GraderLoadError extends HoloDeckError {
  override name = 'GraderLoadError';
  constructor(
    message: string,
    readonly field: 'file' | 'function',
    readonly problem?: ModuleLoadProblem,
  ) {
    super(message);
  }
}

/** Loads the grader function named by a `code` metric; throws GraderLoadError saying what is wrong. */
export async function loadGrader(config: CodeConfig): Promise<Grader> {
  const found = await stat(config.file).then(
    (stats) => stats.isFile(),
    () => false,
  );
  if (!found) throw new GraderLoadError(`code metric file not found: ${config.file}`, 'file');
  let module: Record<string, unknown>;
  try {
    module = await loadUserModule(config.file);
  } catch (error) {
    const problem = describeModuleLoadError(error, config.file);
    throw new GraderLoadError(
      `cannot load grader module ${config.file}: ${problem.message}`,
      'file',
      problem,
    );
  }
  const grader = module[config.function];
  if (typeof grader !== 'function') {
    const exported = Object.keys(module)
      .filter((key) => typeof module[key] === 'function')
      .sort();
    throw new GraderLoadError(
      `${config.file} has no exported function "${config.function}"${exported.length ? `; it exports ${exported.join(', ')}` : ''}`,
      'function',
    );
  }
  return grader as Grader;
}

/** A score a grader returned, or why it is not one: scores are in [0, 1], never clamped. */
function scoreProblem(score: number): string | undefined {
  if (Number.isFinite(score) && score >= 0 && score <= 1) return undefined;
  return `grader returned the score ${score}; a score must be from 0 to 1`;
}

function interpret(config: CodeConfig, result: unknown): MetricOutcome {
  if (typeof result === 'boolean') {
    return {
      ...scoredOutcome(config, result ? 1 : 0, config.threshold, `grader returned ${result}`),
      passed: result,
    };
  }
  if (typeof result === 'number') {
    const problem = scoreProblem(result);
    if (problem) return errorOutcome(config, problem, config.threshold);
    return scoredOutcome(config, result, config.threshold, `grader scored ${result}`);
  }
  if (
    typeof result === 'object' &&
    result !== null &&
    'score' in result &&
    typeof result.score === 'number'
  ) {
    const problem = scoreProblem(result.score);
    if (problem) return errorOutcome(config, problem, config.threshold);
    const reason =
      'reason' in result && typeof result.reason === 'string'
        ? result.reason
        : `grader scored ${result.score}`;
    const outcome = scoredOutcome(config, result.score, config.threshold, reason);
    return 'passed' in result && typeof result.passed === 'boolean'
      ? { ...outcome, passed: result.passed }
      : outcome;
  }
  return errorOutcome(
    config,
    `grader returned ${JSON.stringify(result)}; expected a boolean, a number or {score, passed?, reason?}`,
  );
}

/**
 * A JS/TS function as a metric, called as `grader(input, { signal })`. A grader that throws, or
 * runs past the metric's `timeout` (seconds), yields an error outcome; when the attempt's signal
 * aborts (case timeout, Ctrl+C) the abort is rethrown so the run stops. The signal is the only way
 * to stop a grader: one that ignores it keeps running in the background, but its result is dropped.
 */
export function createCodeMetric(config: CodeConfig, grader: Grader): Metric {
  return {
    name: metricName(config),
    type: config.type,
    async evaluate(input, context) {
      const limit = new AbortController();
      const timer = setTimeout(
        () => limit.abort(new Error(`grader ${config.function} timed out after ${config.timeout} s`)),
        config.timeout * 1000,
      );
      const signal = context.signal ? AbortSignal.any([limit.signal, context.signal]) : limit.signal;
      let onAbort = () => {};
      const stopped = new Promise<never>((_resolve, reject) => {
        onAbort = () => reject(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
      });
      // Only raced while the grader runs: a later abort must not become an unhandled rejection.
      stopped.catch(() => {});
      try {
        signal.throwIfAborted();
        return interpret(config, await Promise.race([grader(input, { signal }), stopped]));
      } catch (error) {
        if (context.signal?.aborted) throw context.signal.reason;
        if (limit.signal.aborted) {
          return errorOutcome(config, `grader ${config.function} timed out after ${config.timeout} s`);
        }
        return errorOutcome(config, `grader ${config.function} threw: ${errorMessage(error)}`);
      } finally {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      }
    },
  };
}

import { stat } from 'node:fs/promises';
import type { MetricConfig } from '../../config/index.js';
import { HoloDeckError } from '../../errors.js';
import { importUserModule } from '../../import-module.js';
import { describeModuleLoadError, type ModuleLoadProblem } from '../../tools/index.js';
import type { Metric, MetricInput, MetricOutcome } from '../metric.js';
import { errorOutcome, metricName, scoredOutcome } from '../metric-outcome.js';

type CodeConfig = Extract<MetricConfig, { type: 'code' }>;

/** What a grader receives: the test case input, the response, tool calls and results, and more. */
export type GraderInput = MetricInput;
/** What a grader may return. */
export type GraderResult = boolean | number | { score: number; passed?: boolean; reason?: string };

type Grader = (input: GraderInput) => GraderResult | Promise<GraderResult>;

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
    module = await importUserModule(config.file);
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

function interpret(config: CodeConfig, result: unknown): MetricOutcome {
  if (typeof result === 'boolean') {
    return {
      ...scoredOutcome(config, result ? 1 : 0, config.threshold, `grader returned ${result}`),
      passed: result,
    };
  }
  if (typeof result === 'number' && Number.isFinite(result)) {
    return scoredOutcome(config, result, config.threshold, `grader scored ${result}`);
  }
  if (
    typeof result === 'object' &&
    result !== null &&
    'score' in result &&
    typeof result.score === 'number'
  ) {
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

/** A JS/TS function as a metric; a grader that throws yields an error outcome with its message. */
export function createCodeMetric(config: CodeConfig, grader: Grader): Metric {
  return {
    name: metricName(config),
    type: config.type,
    async evaluate(input) {
      try {
        return interpret(config, await grader(input));
      } catch (error) {
        return errorOutcome(
          config,
          `grader ${config.function} threw: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    },
  };
}

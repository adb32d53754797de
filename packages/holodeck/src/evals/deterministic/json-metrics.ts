import type { ValidateFunction } from 'ajv';
import type { MetricConfig } from '../../config/index.js';
import { compileUserSchema } from '../../json-schema/create-ajv.js';
import { errorMessage } from '../../support.js';
import type { Metric, MetricInput } from '../metric.js';
import { checkOutcome, metricName } from '../metric-outcome.js';

type JsonConfig = Extract<
  MetricConfig,
  { type: 'is-json' | 'not-is-json' | 'json-schema' | 'not-json-schema' }
>;

/** The JSON value of the answer: the structured output when there is one, else the parsed response. */
function parseAnswer(input: MetricInput): { ok: true; value: unknown } | { ok: false; error: string } {
  if (input.structuredOutput !== undefined) return { ok: true, value: input.structuredOutput };
  try {
    return { ok: true, value: JSON.parse(input.response) };
  } catch (error) {
    return {
      ok: false,
      error: `the response is not JSON (${errorMessage(error)})`,
    };
  }
}

/**
 * is-json / json-schema and their `not-` twins. A json-schema `value` given as a path was loaded by
 * the test-suite loader; here it is always the schema object.
 */
export function createJsonMetric(config: JsonConfig, schema?: Record<string, unknown>): Metric {
  const negated = config.type.startsWith('not-');
  let validate: ValidateFunction | undefined;
  if (config.type === 'json-schema' || config.type === 'not-json-schema') {
    const resolved = schema ?? (typeof config.value === 'object' ? config.value : undefined);
    if (!resolved)
      throw new Error(`json-schema metric "${metricName(config)}" has no schema loaded (this is a bug)`);
    validate = compileUserSchema(resolved);
  }
  return {
    name: metricName(config),
    type: config.type,
    async evaluate(input) {
      const answer = parseAnswer(input);
      let matched: boolean;
      let reason: string;
      if (!answer.ok) {
        [matched, reason] = [false, answer.error];
      } else if (!validate) {
        [matched, reason] = [true, 'the response is valid JSON'];
      } else if (validate(answer.value)) {
        [matched, reason] = [true, 'the response matches the JSON Schema'];
      } else {
        const problems = (validate.errors ?? [])
          .map((e) => `${e.instancePath || '(root)'} ${e.message}`)
          .join('; ');
        [matched, reason] = [false, `the response does not match the JSON Schema: ${problems}`];
      }
      return checkOutcome(config, negated ? !matched : matched, reason);
    },
  };
}

import { type MetricConfig, MetricConfigSchema, type MetricType } from '../../../../src/config/index.js';
import { JudgeError } from '../../../../src/evals/judge/judge-error.js';
import type { JudgeClient, JudgeRequest, MetricInput } from '../../../../src/evals/metric.js';
import { compileUserSchema } from '../../../../src/json-schema/create-ajv.js';

/** A JudgeClient that answers with scripted verdicts (or errors) and records what it was asked. */
export interface StubJudge extends JudgeClient {
  readonly requests: JudgeRequest[];
}

/**
 * Answers each call with the next scripted verdict. By default each verdict is checked against the
 * request's verdict schema, as the real client does, so the scripts prove the schemas fit.
 */
export function stubJudge(
  answers: Array<Record<string, unknown> | Error>,
  options: { validate?: boolean } = {},
) {
  const requests: JudgeRequest[] = [];
  const judge: StubJudge = {
    model: 'stub-judge',
    requests,
    async judge(request) {
      requests.push(request);
      const answer = answers.shift();
      if (answer === undefined) throw new Error('stub judge: no answer scripted');
      if (answer instanceof Error) throw answer;
      if (options.validate !== false) {
        const validate = compileUserSchema(request.verdictSchema);
        if (!validate(answer)) {
          throw new JudgeError(`stub: verdict violates schema: ${JSON.stringify(validate.errors)}`, {
            code: 'invalid-answer',
          });
        }
      }
      return answer;
    },
  };
  return judge;
}

/** A MetricInput with the fields judge metrics look at; the rest zeroed. */
export function metricInput(fields: Partial<MetricInput> = {}): MetricInput {
  return {
    input: 'What is the capital of France?',
    response: 'The capital of France is Paris.',
    toolCalls: [],
    toolResults: [],
    durationMs: 0,
    costUsd: 0,
    numTurns: 1,
    tokenUsage: {
      prompt_tokens: 0,
      completion_tokens: 0,
      total_tokens: 0,
      cache_read_tokens: 0,
      cache_creation_tokens: 0,
    },
    ...fields,
  };
}

/** A metric entry parsed by the config layer (its defaults applied), narrowed to its type. */
export function metricConfig<Type extends MetricType>(
  entry: { type: Type } & Record<string, unknown>,
): Extract<MetricConfig, { type: Type }> {
  const parsed = MetricConfigSchema.parse(entry);
  if (parsed.type !== entry.type) throw new Error(`parsed a ${parsed.type} config, not ${entry.type}`);
  return parsed as Extract<MetricConfig, { type: Type }>;
}

/** The only request a stub judge received. */
export function onlyRequest(judge: StubJudge): JudgeRequest {
  if (judge.requests.length !== 1) throw new Error(`expected 1 judge request, got ${judge.requests.length}`);
  const [request] = judge.requests;
  if (request === undefined) throw new Error('unreachable');
  return request;
}

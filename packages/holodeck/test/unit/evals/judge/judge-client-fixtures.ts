import { createServer } from 'node:net';
import type { FakeAnthropicServer } from '@holodeck/testkit';
import {
  createJudgeClient,
  type JudgeClientOptions,
} from '../../../../src/evals/judge/create-judge-client.js';
import { JudgeError } from '../../../../src/evals/judge/judge-error.js';
import type { JudgeClient, JudgeRequest } from '../../../../src/evals/metric.js';

/** A fake API key; tests check that no error message ever contains it. */
export const API_KEY = 'sk-ant-test-secret-0123456789';

export const verdictSchema = {
  type: 'object',
  properties: { reason: { type: 'string' }, score: { type: 'integer', minimum: 1, maximum: 5 } },
  required: ['reason', 'score'],
  additionalProperties: false,
};

export const judgeRequest: JudgeRequest = {
  system: 'You grade.',
  prompt: 'Grade <agent_response>x</agent_response>',
  verdictSchema,
};

/** An anthropic judge client pointed at the fake server, with fast retries. */
export function fakeServerClient(
  server: FakeAnthropicServer,
  options: Partial<JudgeClientOptions> = {},
): JudgeClient {
  return createJudgeClient({
    provider: 'anthropic',
    model: 'claude-judge-test',
    env: { ANTHROPIC_API_KEY: API_KEY, ANTHROPIC_BASE_URL: server.url },
    retryDelayMs: 5,
    ...options,
  });
}

/** The JudgeError a promise rejects with (fails the test on anything else). */
export async function judgeError(promise: Promise<unknown>): Promise<JudgeError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof JudgeError)) throw new Error(`expected a JudgeError, got ${String(error)}`);
  return error;
}

/** A port nothing listens on: bound by a server that is closed again. */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type FakeAnthropicServer, startFakeAnthropic, toolUse } from '@holodeck/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GradingCall } from '../../../../src/evals/metric.js';
import { fakeServerClient, judgeRequest } from './judge-client-fixtures.js';

let server: FakeAnthropicServer;
let cacheDir: string;

beforeAll(async () => {
  server = await startFakeAnthropic();
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  server.reset();
  cacheDir = await mkdtemp(path.join(tmpdir(), 'holodeck-judge-usage-'));
  return () => rm(cacheDir, { recursive: true, force: true });
});

describe("judge(): each call's usage for the attempt that made it", () => {
  it('tells a billed answer with its usage, then the same request from the judge cache as cached', async () => {
    const usage = { input_tokens: 900, output_tokens: 40, cache_read_input_tokens: 100 };
    server.script(toolUse('submit_verdict', { reason: 'fine', score: 4 }, { usage }));
    const client = fakeServerClient(server, { cacheDir });
    const calls: GradingCall[] = [];
    await client.judge(judgeRequest, undefined, (call) => calls.push(call));
    await client.judge(judgeRequest, undefined, (call) => calls.push(call));
    server.assertComplete();
    expect(calls).toEqual([
      {
        kind: 'judge',
        provider: 'anthropic',
        model: 'claude-judge-test',
        cached: false,
        usage: {
          input_tokens: 900,
          output_tokens: 40,
          cache_read_tokens: 100,
          cache_creation_tokens: 0,
          counting: 'cache-apart',
        },
      },
      { kind: 'judge', provider: 'anthropic', model: 'claude-judge-test', cached: true },
    ]);
  });

  it('tells a refused answer too: it was billed before its verdict failed the schema', async () => {
    server.script(
      toolUse('submit_verdict', { reason: 'no score' }, { usage: { input_tokens: 5, output_tokens: 2 } }),
    );
    const calls: GradingCall[] = [];
    await expect(
      fakeServerClient(server).judge(judgeRequest, undefined, (call) => calls.push(call)),
    ).rejects.toThrow('does not match its schema');
    expect(calls.map((call) => [call.cached, call.usage?.input_tokens, call.usage?.output_tokens])).toEqual([
      [false, 5, 2],
    ]);
  });
});

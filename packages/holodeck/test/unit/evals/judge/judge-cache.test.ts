import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FakeAnthropicServer, startFakeAnthropic, toolUse } from '@holodeck/testkit';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { JudgeClientOptions } from '../../../../src/evals/judge/create-judge-client.js';
import { judgeCacheFile, judgeCacheKey } from '../../../../src/evals/judge/judge-cache.js';
import { fakeServerClient, judgeError, judgeRequest, verdictSchema } from './judge-client-fixtures.js';

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
  cacheDir = await mkdtemp(join(tmpdir(), 'judge-cache-'));
});
afterEach(async () => {
  await rm(cacheDir, { recursive: true, force: true });
});

const client = (options: Partial<JudgeClientOptions> = {}) => fakeServerClient(server, options);

describe('judge cache', () => {
  it('answers a repeated request from the cache without a second API call', async () => {
    server.script(toolUse('submit_verdict', { reason: 'cached', score: 5 }));
    const first = await client({ cacheDir }).judge(judgeRequest);
    const second = await client({ cacheDir }).judge(judgeRequest);
    expect(second).toEqual(first);
    expect(server.requests).toHaveLength(1);
    const key = judgeCacheKey({ model: 'claude-judge-test', ...judgeRequest, temperature: 0 });
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(await readdir(cacheDir)).toEqual([`${key}.json`]);
    const stored = JSON.parse(await readFile(judgeCacheFile(cacheDir, key), 'utf8'));
    expect(stored).toMatchObject({ schemaVersion: 1, key, model: 'claude-judge-test', verdict: first });
  });

  it('asks again when the prompt, the schema or the model changes', async () => {
    server.script(
      toolUse('submit_verdict', { reason: 'a', score: 1 }),
      toolUse('submit_verdict', { reason: 'b', score: 2 }),
      toolUse('submit_verdict', { reason: 'c', score: 3 }),
    );
    await client({ cacheDir }).judge(judgeRequest);
    await expect(client({ cacheDir }).judge({ ...judgeRequest, prompt: 'Grade y' })).resolves.toEqual({
      reason: 'b',
      score: 2,
    });
    await client({ cacheDir, model: 'other-judge' }).judge(judgeRequest);
    expect(server.requests).toHaveLength(3);
    expect(await readdir(cacheDir)).toHaveLength(3);
    const keys = new Set([
      judgeCacheKey({ model: 'm', ...judgeRequest, temperature: 0 }),
      judgeCacheKey({ model: 'm', ...judgeRequest, prompt: 'Grade y', temperature: 0 }),
      judgeCacheKey({
        model: 'm',
        ...judgeRequest,
        verdictSchema: { ...verdictSchema, required: ['score'] },
        temperature: 0,
      }),
    ]);
    expect(keys.size).toBe(3);
  });

  it('does not cache a refused verdict', async () => {
    server.script(toolUse('submit_verdict', { reason: 'bad', score: 9 }));
    await judgeError(client({ cacheDir }).judge(judgeRequest));
    expect(await readdir(cacheDir)).toEqual([]);
  });

  it('treats a corrupt cache file, or one whose verdict no longer fits, as a miss and overwrites it', async () => {
    const key = judgeCacheKey({ model: 'claude-judge-test', ...judgeRequest, temperature: 0 });
    const file = judgeCacheFile(cacheDir, key);
    server.script(
      toolUse('submit_verdict', { reason: 'fresh', score: 2 }),
      toolUse('submit_verdict', { reason: 'fresher', score: 3 }),
    );
    await writeFile(file, '{ not json');
    await expect(client({ cacheDir }).judge(judgeRequest)).resolves.toEqual({ reason: 'fresh', score: 2 });
    const stale = {
      schemaVersion: 1,
      key,
      model: 'claude-judge-test',
      verdict: { reason: 'edited', score: 7 },
    };
    await writeFile(file, JSON.stringify(stale));
    await expect(client({ cacheDir }).judge(judgeRequest)).resolves.toEqual({ reason: 'fresher', score: 3 });
    expect(JSON.parse(await readFile(file, 'utf8')).verdict).toEqual({ reason: 'fresher', score: 3 });
    expect(server.requests).toHaveLength(2);
  });

  it('warns, but still returns the verdict, when the cache cannot be written', async () => {
    server.script(toolUse('submit_verdict', { reason: 'ok', score: 3 }));
    const blocker = join(cacheDir, 'file');
    await writeFile(blocker, '');
    const warnings: string[] = [];
    const verdict = await client({
      cacheDir: join(blocker, 'sub'),
      onWarning: (warning) => warnings.push(warning),
    }).judge(judgeRequest);
    expect(verdict).toEqual({ reason: 'ok', score: 3 });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('could not write the judge cache in');
  });
});

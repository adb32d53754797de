import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FakeAnthropicServer, startFakeAnthropic, toolUse } from '@holodeck/testkit';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LLMProvider } from '../../../../src/config/index.js';
import { judgeCacheKey } from '../../../../src/evals/judge/judge-cache.js';
import { judgeClientFor } from '../../../../src/evals/judge/judge-client-for.js';
import { JudgeError } from '../../../../src/evals/judge/judge-error.js';
import { API_KEY, judgeError, judgeRequest, verdictSchema } from './judge-client-fixtures.js';

/** What the local Chat Completions server received. */
interface Received {
  url: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

let chat: Server;
let chatUrl: string;
let replies: Array<{ status: number; body: unknown }> = [];
const received: Received[] = [];
let anthropic: FakeAnthropicServer;
let cacheDir: string;

beforeAll(async () => {
  anthropic = await startFakeAnthropic();
  chat = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        url: request.url ?? '',
        headers: request.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
      });
      const reply = replies.shift() ?? { status: 500, body: { error: { message: 'no reply scripted' } } };
      response.writeHead(reply.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => chat.listen(0, '127.0.0.1', resolve));
  const address = chat.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  chatUrl = `http://127.0.0.1:${address.port}`;
});
beforeEach(async () => {
  replies = [];
  received.length = 0;
  anthropic.reset();
  cacheDir = await mkdtemp(join(tmpdir(), 'judge-client-for-'));
});
afterEach(async () => {
  await rm(cacheDir, { recursive: true, force: true });
});
afterAll(async () => {
  await anthropic.close();
  chat.closeAllConnections();
  await new Promise<void>((resolve) => chat.close(() => resolve()));
});

/** A Chat Completions reply calling submit_verdict. */
const verdictReply = (verdict: Record<string, unknown>) => ({
  status: 200,
  body: {
    choices: [
      {
        finish_reason: 'tool_calls',
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'submit_verdict', arguments: JSON.stringify(verdict) },
            },
          ],
        },
      },
    ],
  },
});

describe('judgeClientFor', () => {
  it('judges with an openai model from agent.yaml: endpoint, api_key, organization, max_tokens', async () => {
    replies.push(verdictReply({ reason: 'fine', score: 4 }));
    const model: LLMProvider = {
      provider: 'openai',
      name: 'gpt-judge',
      endpoint: `${chatUrl}/v1`,
      api_key: API_KEY,
      organization: 'org-7',
      max_tokens: 900,
      temperature: 0.7,
    };
    const judge = judgeClientFor(model, { env: {}, cacheDir });
    expect(judge.model).toBe('gpt-judge');
    await expect(judge.judge(judgeRequest)).resolves.toEqual({ reason: 'fine', score: 4 });
    const [request] = received;
    expect(request?.url).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request?.headers['openai-organization']).toBe('org-7');
    expect(request?.body).toEqual({
      model: 'gpt-judge',
      messages: [
        { role: 'system', content: judgeRequest.system },
        { role: 'user', content: judgeRequest.prompt },
      ],
      temperature: 0,
      max_completion_tokens: 900,
      tools: [
        {
          type: 'function',
          function: { name: 'submit_verdict', description: expect.any(String), parameters: verdictSchema },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'submit_verdict' } },
    });
  });

  it('caches verdicts of other providers under provider:model, and answers repeats from the cache', async () => {
    replies.push(verdictReply({ reason: 'cached', score: 5 }));
    const model: LLMProvider = { provider: 'ollama', name: 'llama3.1', endpoint: chatUrl };
    await judgeClientFor(model, { env: {}, cacheDir }).judge(judgeRequest);
    await expect(judgeClientFor(model, { env: {}, cacheDir }).judge(judgeRequest)).resolves.toEqual({
      reason: 'cached',
      score: 5,
    });
    expect(received).toHaveLength(1);
    const key = judgeCacheKey({ model: 'ollama:llama3.1', ...judgeRequest, temperature: 0 });
    expect(await readdir(cacheDir)).toEqual([`${key}.json`]);
  });

  it('calls an azure_openai deployment', async () => {
    replies.push(verdictReply({ reason: 'fine', score: 4 }));
    const model: LLMProvider = {
      provider: 'azure_openai',
      name: 'gpt-4o',
      endpoint: chatUrl,
      deployment: 'judges',
      api_version: '2025-01-01-preview',
    };
    await judgeClientFor(model, { env: { AZURE_OPENAI_API_KEY: API_KEY }, cacheDir }).judge(judgeRequest);
    expect(received[0]?.url).toBe(
      '/openai/deployments/judges/chat/completions?api-version=2025-01-01-preview',
    );
    expect(received[0]?.headers['api-key']).toBe(API_KEY);
  });

  it('judges with an anthropic model, reading ANTHROPIC_BASE_URL and the key from env', async () => {
    anthropic.script(toolUse('submit_verdict', { reason: 'fine', score: 4 }));
    const model: LLMProvider = { provider: 'anthropic', name: 'claude-judge-test' };
    const env = { ANTHROPIC_API_KEY: API_KEY, ANTHROPIC_BASE_URL: anthropic.url };
    await expect(judgeClientFor(model, { env, cacheDir }).judge(judgeRequest)).resolves.toEqual({
      reason: 'fine',
      score: 4,
    });
    expect(anthropic.requests[0]?.body).toMatchObject({ model: 'claude-judge-test', max_tokens: 4096 });
  });

  it('names the agent.yaml field when the key is missing', () => {
    const model: LLMProvider = { provider: 'openai', name: 'gpt-judge' };
    let error: unknown;
    try {
      judgeClientFor(model, { env: {}, cacheDir, settingsPath: 'model' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(JudgeError);
    expect(error).toMatchObject({
      code: 'credentials',
      variable: 'OPENAI_API_KEY',
      message: 'the judge model (openai) needs an API key: set OPENAI_API_KEY or model.api_key',
    });
    expect(() => judgeClientFor(model, { env: {}, cacheDir })).toThrow(
      'the judge model (openai) needs an API key: set OPENAI_API_KEY or evaluations.model.api_key',
    );
  });

  it('names the agent.yaml field on a 401 when the key came from api_key', async () => {
    replies.push({
      status: 401,
      body: { error: { type: 'invalid_request_error', message: 'Incorrect API key' } },
    });
    const model: LLMProvider = { provider: 'openai', name: 'gpt-judge', endpoint: chatUrl, api_key: API_KEY };
    const error = await judgeError(judgeClientFor(model, { env: {}, cacheDir }).judge(judgeRequest));
    expect(error.code).toBe('authentication');
    expect(error.variable).toBe('evaluations.model.api_key');
    expect(error.message).toBe(
      'the judge API rejected the credentials (HTTP 401 invalid_request_error: Incorrect API key): check evaluations.model.api_key',
    );
  });

  it('warns that an auth_provider it cannot use is not used', () => {
    const warnings: string[] = [];
    const model: LLMProvider = { provider: 'anthropic', name: 'claude-judge-test', auth_provider: 'bedrock' };
    judgeClientFor(model, {
      env: { ANTHROPIC_API_KEY: API_KEY },
      cacheDir,
      onWarning: (warning) => warnings.push(warning),
    });
    expect(warnings).toEqual([
      'evaluations.model.auth_provider "bedrock" is not used by the judge: it calls the Anthropic API directly ' +
        'with ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN or CLAUDE_CODE_OAUTH_TOKEN',
    ]);
  });
});

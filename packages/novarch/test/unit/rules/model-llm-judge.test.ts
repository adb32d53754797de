import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { judgeAction } from '../../../src/rules/judge-action.js';
import { AnthropicLlmJudge } from '../../../src/rules/llm/anthropic-llm-judge.js';
import type { LlmJudge } from '../../../src/rules/llm/llm-judge.js';
import { ModelLlmJudge, type ModelLlmJudgeOptions } from '../../../src/rules/llm/model-llm-judge.js';
import { loadRulesFile } from '../../../src/rules/load-rules-file.js';
import type { RuleSet } from '../../../src/rules/rule-set.js';
import { CS_OPS_RULES, lookup, refund, session } from './judge-fixtures.js';

const API_KEY = 'sk-openai-test-secret-key';

/** One answer of the local Chat Completions server. */
interface Answer {
  status?: number;
  body: unknown;
}

/** What the server received. */
interface Received {
  url: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

let server: Server;
let url: string;
let answers: Answer[] = [];
const received: Received[] = [];
let csOps: RuleSet;

beforeAll(async () => {
  csOps = await loadRulesFile(CS_OPS_RULES);
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        url: request.url ?? '',
        headers: request.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
      });
      const answer = answers.shift() ?? { status: 500, body: { error: { message: 'no answer scripted' } } };
      response.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  url = `http://127.0.0.1:${address.port}`;
});
beforeEach(() => {
  answers = [];
  received.length = 0;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A Chat Completions answer calling submit_rule_verdicts. */
const verdictCall = (ruleId: string, violated: boolean, rationale: string): Answer => ({
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
              function: {
                name: 'submit_rule_verdicts',
                arguments: JSON.stringify({ verdicts: [{ rule_id: ruleId, violated, rationale }] }),
              },
            },
          ],
        },
      },
    ],
  },
});

const openaiJudge = (options: Partial<ModelLlmJudgeOptions> = {}) =>
  new ModelLlmJudge({
    provider: 'openai',
    model: 'gpt-judge',
    endpoint: `${url}/v1`,
    env: { OPENAI_API_KEY: API_KEY },
    retryDelayMs: 5,
    ...options,
  });

/** Judges a refund of 120 after a lookup: only TEAM-3 (no condition) goes to the LLM judge. */
const judgeRefund = (judge: LlmJudge) =>
  judgeAction({
    action: refund('cust-7', 120),
    evidence: [lookup('ev-1', 'cust-7')],
    session,
    rules: [csOps],
    llmJudge: judge,
  });

const held = (reason: string) => `TEAM-3 v1 (hold): the LLM judge could not decide (${reason})`;

describe('ModelLlmJudge on other providers', () => {
  it('passes on openai when the model finds the rule kept, with a forced function call at temperature 0', async () => {
    answers.push(verdictCall('TEAM-3', false, 'no compensation promised'));
    const verdict = await judgeRefund(openaiJudge());
    expect(verdict.kind).toBe('pass');
    const [request] = received;
    expect(request?.url).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request?.body).toMatchObject({
      model: 'gpt-judge',
      temperature: 0,
      max_completion_tokens: 2048,
      tool_choice: { type: 'function', function: { name: 'submit_rule_verdicts' } },
      tools: [
        {
          type: 'function',
          function: {
            name: 'submit_rule_verdicts',
            parameters: {
              properties: { verdicts: { items: { properties: { rule_id: { enum: ['TEAM-3'] } } } } },
            },
          },
        },
      ],
    });
    expect(JSON.stringify(request?.body)).toContain('Never promise compensation the policy does not allow.');
  });

  it('holds when the model finds the rule violated', async () => {
    answers.push(verdictCall('TEAM-3', true, 'a voucher was promised'));
    const verdict = await judgeRefund(openaiJudge());
    expect(verdict.citations.rationale).toBe(
      'TEAM-3 v1 (hold): Never promise compensation the policy does not allow. (LLM judge: a voucher was promised)',
    );
  });

  it('AnthropicLlmJudge honours a provider given in its options (a configuration judge: section)', async () => {
    answers.push(verdictCall('TEAM-3', false, 'kept'));
    const config = { provider: 'openai' as const, model: 'gpt-judge', endpoint: `${url}/v1` };
    const judge = new AnthropicLlmJudge({ ...config, env: { OPENAI_API_KEY: API_KEY } });
    expect((await judgeRefund(judge)).kind).toBe('pass');
    expect(received[0]?.url).toBe('/v1/chat/completions');
    expect(new AnthropicLlmJudge().provider).toBe('anthropic');
    expect(new AnthropicLlmJudge().model).toBe('claude-sonnet-4-6');
  });

  it('retries once by default, then holds saying how many attempts were made', async () => {
    const overloaded = { status: 503, body: { error: { type: 'server_error', message: 'overloaded' } } };
    answers.push(overloaded, overloaded);
    const verdict = await judgeRefund(openaiJudge());
    expect(verdict.citations.rationale).toBe(
      held('the judge request failed: HTTP 503 server_error: overloaded (after 2 attempts)'),
    );
    expect(received).toHaveLength(2);
  });

  it('holds when the model does not answer in time', async () => {
    // A fetch that answers only its abort: no request is left in flight on the shared server.
    const hanging: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      });
    // Without the 100 ms budget the judge would never answer (the fetch answers only its abort).
    const verdict = await judgeRefund(openaiJudge({ fetch: hanging, timeoutMs: 100, maxRetries: 0 }));
    expect(verdict.citations.rationale).toBe(held(`the judge API at ${url} did not answer within 100 ms`));
  });

  it('holds on a 401, naming OPENAI_API_KEY and never the key', async () => {
    answers.push({
      status: 401,
      body: { error: { type: 'invalid_request_error', message: `bad key ${API_KEY}` } },
    });
    const verdict = await judgeRefund(openaiJudge());
    expect(verdict.citations.rationale).toBe(
      held(
        'the judge API rejected the credentials (HTTP 401 invalid_request_error: bad key [redacted]): check OPENAI_API_KEY',
      ),
    );
    expect(JSON.stringify(verdict)).not.toContain(API_KEY);
  });

  it('holds without a request when the key is missing', async () => {
    const verdict = await judgeRefund(openaiJudge({ env: {} }));
    expect(verdict.citations.rationale).toBe(
      held('the judge model (openai) needs an API key: set OPENAI_API_KEY or the apiKey option'),
    );
    expect(received).toHaveLength(0);
  });

  it('holds without a request when a provider other than anthropic has no model', async () => {
    const verdict = await judgeRefund(new ModelLlmJudge({ provider: 'ollama', endpoint: url }));
    expect(verdict.citations.rationale).toBe(
      held('the LLM judge has no model: set the model for provider ollama (judge.model)'),
    );
    expect(received).toHaveLength(0);
  });

  it('holds when azure_openai has no endpoint', async () => {
    const judge = new ModelLlmJudge({
      provider: 'azure_openai',
      model: 'gpt-4o',
      env: { AZURE_OPENAI_API_KEY: API_KEY },
    });
    expect((await judgeRefund(judge)).citations.rationale).toBe(
      held('the judge model (azure_openai) needs an endpoint, e.g. https://<your-resource>.openai.azure.com'),
    );
  });

  it('holds on ollama when the answer has no tool call', async () => {
    answers.push({
      body: { choices: [{ finish_reason: 'stop', message: { role: 'assistant', content: 'Fine by me.' } }] },
    });
    const judge = new ModelLlmJudge({ provider: 'ollama', model: 'llama3.1', endpoint: url, env: {} });
    expect((await judgeRefund(judge)).citations.rationale).toBe(
      held('the judge did not call submit_rule_verdicts. It said: "Fine by me.".'),
    );
    expect(received[0]?.url).toBe('/v1/chat/completions');
    expect(received[0]?.body).toMatchObject({ model: 'llama3.1', max_tokens: 2048 });
  });

  it('never throws, even when fetch itself does something unexpected', async () => {
    const broken: typeof fetch = () => {
      throw new RangeError(`impossible ${API_KEY}`);
    };
    const judge = openaiJudge({ fetch: broken, maxRetries: 0 });
    const verdict = await judgeRefund(judge);
    expect(verdict.kind).toBe('hold');
    expect(verdict.citations.rationale).toBe(
      held(`the judge API at ${url} could not be reached: impossible [redacted]`),
    );
  });
});

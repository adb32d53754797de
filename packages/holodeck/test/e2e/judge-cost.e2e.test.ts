import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  apiError,
  chatReply,
  chatRespond,
  chatToolCall,
  type FakeAnthropicServer,
  type FakeOpenAIServer,
  reply,
  respond,
  startFakeAnthropic,
  startFakeOpenAI,
  toolUse,
} from '@holodeck/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ANTHROPIC_PRICE_TABLE } from '../../src/backends/pricing/anthropic-price-table.js';
import { parseRunReport } from '../../src/runner/report/run-report-schema.js';
import { favourableVerdict } from './both-backends/favourable-verdict.js';
import { createE2eAgent } from './support/e2e-agent.js';
import { runHolodeckCli } from './support/run-holodeck-cli.js';

// Through the real CLI: the agent (gpt-4o) on the fake Chat Completions API, its judge
// (claude-haiku-4-5) on the fake Messages API, both reporting each answer's usage.
// An agent reply: 1,000 prompt tokens (400 from the prompt cache) and 100 out at gpt-4o's
// $2.50 / $1.25 cached / $10 per million = $0.003.
// A judge answer: 1,000 input, 200 cache reads, 50 out at claude-haiku-4-5's $1 / $0.10 / $5
// per million = $0.00127.
const AGENT_USAGE = { prompt_tokens: 1_000, completion_tokens: 100, cached_tokens: 400 };
const AGENT_REPLY = 0.003;
const JUDGE_USAGE = { input_tokens: 1_000, output_tokens: 50, cache_read_input_tokens: 200 };
const JUDGE_ANSWER = 0.00127;

// `graded`: 3 attempts, a G-Eval of 2 samples whose steps are derived once: 1 + 3 × 2 = 7 judge
// answers. `kind`: 2 attempts of a rubric: 2 answers. 5 agent replies, 9 judge answers.
const CASES = [
  {
    name: 'graded',
    input: 'Where is my order?',
    repeat: 3,
    metrics: [{ type: 'g-eval', name: 'helpful', criteria: 'Says where the order is.', samples: 2 }],
  },
  {
    name: 'kind',
    input: 'Thanks!',
    repeat: 2,
    metrics: [
      { type: 'contains', value: 'Fine' },
      { type: 'rubric', name: 'polite', value: 'The answer is polite.' },
    ],
  },
];

// The first tests: the agent on `openai`, the judge on `anthropic`; the last one the other way round.
let openai: FakeOpenAIServer;
let anthropic: FakeAnthropicServer;
beforeAll(async () => {
  openai = await startFakeOpenAI();
  anthropic = await startFakeAnthropic();
});
afterEach(() => {
  try {
    openai.assertComplete();
    anthropic.assertComplete();
  } finally {
    openai.reset();
    anthropic.reset();
  }
});
afterAll(async () => {
  await openai.close();
  await anthropic.close();
});

/** The judge's answer to any request: the most favourable verdict its schema allows, with its usage. */
const judgeAnswer = respond((request) => {
  const body = request.body as { tools: { input_schema: Record<string, unknown> }[] };
  const schema = body.tools[0]?.input_schema ?? {};
  return toolUse('submit_verdict', favourableVerdict(schema), { usage: JUDGE_USAGE });
});

/**
 * Five agent replies, each its own text: no attempt's verdicts are in the judge cache of another's.
 * One attempt at a time (-c 1), so a second run gives each attempt the same reply again.
 */
function replies() {
  return Array.from({ length: 5 }, (_, index) =>
    chatReply(`Fine, it has shipped (${index + 1}).`, { usage: AGENT_USAGE }),
  );
}

function agent() {
  return createE2eAgent(anthropic.url, {
    config: {
      model: { provider: 'openai', name: 'gpt-4o', endpoint: openai.baseUrl },
      evaluations: { model: { provider: 'anthropic', name: 'claude-haiku-4-5', endpoint: anthropic.url } },
      test_cases: CASES,
    },
    env: { OPENAI_API_KEY: 'sk-openai-e2e-judge-cost' },
  });
}

/** The JSON report, checked against its schema (judge fields included), and every attempt of it. */
function attemptsOf(file: string) {
  const json = parseRunReport(readFileSync(file, 'utf8'), file);
  return { json, attempts: json.cases.flatMap((entry) => entry.attempts) };
}

describe("the judge's calls in a run's cost", () => {
  it('counts every judge answer (steps, samples, repeats; a retried 529 not) per attempt, and the summary is their sum', async () => {
    openai.script(...replies());
    // The first judge request is refused as overloaded and retried: not billed, not counted.
    anthropic.script(
      apiError(529, { type: 'overloaded_error', message: 'Overloaded' }),
      ...Array.from({ length: 9 }, () => judgeAnswer),
    );
    const e2e = agent();
    const report = path.join(e2e.directory, 'report.json');
    const outcome = await runHolodeckCli(['test', e2e.file, '-c', '1', '-o', report], e2e.env);
    expect(outcome.code, outcome.stderr).toBe(0);
    const { json, attempts } = attemptsOf(report);
    expect(attempts).toHaveLength(5);
    expect(attempts.reduce((sum, entry) => sum + (entry.judge_calls?.billed ?? 0), 0)).toBe(9);
    for (const entry of attempts) {
      expect(entry.cost_usd).toBeCloseTo(AGENT_REPLY, 10);
      expect(entry.judge_cost_usd).toBeCloseTo((entry.judge_calls?.billed ?? 0) * JUDGE_ANSWER, 10);
      expect(entry.judge_token_usage).toMatchObject({
        prompt_tokens: (entry.judge_calls?.billed ?? 0) * 1_000,
        completion_tokens: (entry.judge_calls?.billed ?? 0) * 50,
        cache_read_tokens: (entry.judge_calls?.billed ?? 0) * 200,
      });
    }
    const judgeSum = attempts.reduce((sum, entry) => sum + (entry.judge_cost_usd ?? 0), 0);
    expect(json.summary).toMatchObject({
      judge_calls: { billed: 9, cached: 0 },
      judge_token_usage: { prompt_tokens: 9_000, completion_tokens: 450, cache_read_tokens: 1_800 },
    });
    expect(json.summary.cost_usd).toBeCloseTo(5 * AGENT_REPLY, 10);
    expect(json.summary.judge_cost_usd).toBeCloseTo(judgeSum, 10);
    expect(json.summary.judge_cost_usd).toBeCloseTo(9 * JUDGE_ANSWER, 10);
    expect(json.summary.total_cost_usd).toBeCloseTo(5 * AGENT_REPLY + 9 * JUDGE_ANSWER, 10);
    // The agent's own figures are unchanged: cost_usd and the cost per passed case leave the judge out.
    expect(json.summary.cost_per_passed_case_usd).toBeCloseTo(2.5 * AGENT_REPLY, 10);
    expect(outcome.stdout).toContain(
      '· agent $0.0150 ($0.0075 per passed case) · judge $0.0114 (9 calls) · total $0.0264',
    );

    // Again: every verdict is in the judge cache now, so the judge costs nothing and says so.
    openai.script(...replies());
    const junit = path.join(e2e.directory, 'report.xml');
    const cached = await runHolodeckCli(['test', e2e.file, '-c', '1', '-o', junit, '--no-save'], e2e.env);
    expect(cached.code, cached.stderr).toBe(0);
    expect(cached.stdout).toContain(
      '· agent $0.0150 ($0.0075 per passed case) · judge $0 (9 calls, 9 cached) · total $0.0150',
    );
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('<property name="cost_usd" value="0.015"/>');
    expect(xml).toContain('<property name="judge_cost_usd" value="0"/>');
    expect(xml).toContain('<property name="judge_calls" value="0"/>');
    expect(xml).toContain('<property name="judge_calls_cached" value="9"/>');
    expect(xml).toContain('<property name="total_cost_usd" value="0.015"/>');

    // A regrade counts what its own judge calls spent: here every verdict comes from the cache.
    const regraded = await runHolodeckCli(['test', 'regrade', 'latest', e2e.file, '--no-save'], e2e.env);
    expect(regraded.code, regraded.stderr).toBe(0);
    expect(regraded.stdout).toContain(
      '· agent $0.0150 ($0.0075 per passed case) · judge $0 (9 calls, 9 cached) · total $0.0150',
    );
  });

  it('--max-cost counts the judge: the budget stops the run sooner than the agent alone would', async () => {
    // One attempt of `graded` spends 0.003 (agent) + 3 × 0.00127 (steps and 2 samples) = 0.00681.
    openai.script(chatReply('Fine, it has shipped.', { usage: AGENT_USAGE }));
    anthropic.script(...Array.from({ length: 3 }, () => judgeAnswer));
    const e2e = agent();
    const report = path.join(e2e.directory, 'report.json');
    const outcome = await runHolodeckCli(
      ['test', e2e.file, '-c', '1', '--max-cost', '0.005', '-o', report, '--no-save'],
      e2e.env,
    );
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toMatch(/the run stopped at its budget: --max-cost \$0\.005 reached/);
    const { json } = attemptsOf(report);
    expect(json.budget?.spent_usd).toBeCloseTo(AGENT_REPLY + 3 * JUDGE_ANSWER, 10);
  });

  it('--max-cost is refused before anything runs when the judge model or the embedding model has no known price, naming it', async () => {
    const e2e = createE2eAgent(anthropic.url, {
      config: {
        model: { provider: 'openai', name: 'gpt-4o', endpoint: openai.baseUrl },
        evaluations: { model: { provider: 'anthropic', name: 'claude-judge-x', endpoint: anthropic.url } },
        test_cases: CASES,
      },
      env: { OPENAI_API_KEY: 'sk-openai-e2e-judge-cost' },
    });
    const refused = await runHolodeckCli(['test', e2e.file, '--max-cost', '1', '--no-save'], e2e.env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `--max-cost: the budget counts the judge's calls, and their cost is unknown (the price table (anthropic ${ANTHROPIC_PRICE_TABLE.version}) has no price for the judge model anthropic claude-judge-x)\n    hint: set evaluations.model to a model of HoloDeck's price tables, or leave --max-cost out`,
    );
    expect(openai.requests).toHaveLength(0);
    // The similar metric's embeddings count too: a local model has no price.
    const local = createE2eAgent(anthropic.url, {
      config: {
        model: { provider: 'openai', name: 'gpt-4o', endpoint: openai.baseUrl },
        test_cases: [
          {
            name: 'close',
            input: 'Where is my order?',
            metrics: [
              {
                type: 'similar',
                value: 'It has shipped.',
                embedding_provider: { provider: 'ollama', name: 'nomic-embed-text', endpoint: openai.url },
              },
            ],
          },
        ],
      },
      env: { OPENAI_API_KEY: 'sk-openai-e2e-judge-cost' },
    });
    const embeddings = await runHolodeckCli(['test', local.file, '--max-cost', '1', '--no-save'], local.env);
    expect(embeddings.code).toBe(2);
    expect(embeddings.stderr).toContain(
      "--max-cost: the budget counts the similar metric's embeddings requests, and their cost is unknown (ollama runs the embedding model ollama nomic-embed-text on your own machine, so it has no per-token price)\n    hint: give the similar metric an embedding_provider from the price table, or leave --max-cost out",
    );
    expect(openai.requests).toHaveLength(0);
  });

  it('a Claude agent judged by an OpenAI model, with similar embeddings: every call priced, cached input apart', async () => {
    // Agent: claude-sonnet-4-5 at $3 / $15 per million, 1,000 in / 100 out = $0.0045 a reply (the CLI's figure).
    // Judge: gpt-4o-mini at $0.15 / $0.075 cached / $0.60: 2,000 prompt (1,000 cached), 100 out = $0.000285.
    // similar: text-embedding-3-small at $0.02 per million input tokens, as the fake counts them.
    anthropic.script(
      reply('Your order has shipped (1).', { usage: { input_tokens: 1_000, output_tokens: 100 } }),
      reply('Your order has shipped (2).', { usage: { input_tokens: 1_000, output_tokens: 100 } }),
    );
    const judgeUsage = { prompt_tokens: 2_000, completion_tokens: 100, cached_tokens: 1_000 };
    openai.script(
      ...[1, 2].map(() =>
        chatRespond((request) => {
          const body = request.body as { tools: { function: { parameters: Record<string, unknown> } }[] };
          const schema = body.tools[0]?.function.parameters ?? {};
          return chatToolCall('submit_verdict', favourableVerdict(schema), { usage: judgeUsage });
        }),
      ),
    );
    const e2e = createE2eAgent(anthropic.url, {
      config: {
        evaluations: { model: { provider: 'openai', name: 'gpt-4o-mini', endpoint: openai.baseUrl } },
        test_cases: [
          {
            name: 'shipped',
            input: 'Where is my order?',
            repeat: 2,
            metrics: [
              { type: 'rubric', name: 'says-where', value: 'The answer says where the order is.' },
              {
                type: 'similar',
                value: 'Your order has shipped.',
                threshold: 0,
                embedding_provider: {
                  provider: 'openai',
                  name: 'text-embedding-3-small',
                  endpoint: openai.baseUrl,
                },
              },
            ],
          },
        ],
      },
      env: { OPENAI_API_KEY: 'sk-openai-e2e-judge-cost' },
    });
    const report = path.join(e2e.directory, 'report.json');
    const outcome = await runHolodeckCli(['test', e2e.file, '-c', '1', '-o', report, '--no-save'], e2e.env);
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(openai.embeddingsRequests).toHaveLength(2);
    const { json, attempts } = attemptsOf(report);
    for (const entry of attempts) {
      expect(entry.cost_usd).toBeCloseTo(0.0045, 10);
      expect(entry.judge_calls).toEqual({ billed: 2, cached: 0 });
      // The chat call's 2,000 prompt tokens, and the embeddings request's on top.
      const embedded = (entry.judge_token_usage?.prompt_tokens ?? 0) - 2_000;
      expect(embedded).toBeGreaterThan(0);
      expect(entry.judge_token_usage).toMatchObject({ completion_tokens: 100, cache_read_tokens: 1_000 });
      expect(entry.judge_cost_usd).toBeCloseTo(0.000285 + (embedded * 0.02) / 1e6, 12);
    }
    const judged = attempts.reduce((sum, entry) => sum + (entry.judge_cost_usd ?? 0), 0);
    expect(json.summary.judge_calls).toEqual({ billed: 4, cached: 0 });
    expect(json.summary.judge_cost_usd).toBeCloseTo(judged, 12);
    expect(json.summary.cost_usd).toBeCloseTo(0.009, 10);
    expect(json.summary.total_cost_usd).toBeCloseTo(0.009 + judged, 12);
  });
});

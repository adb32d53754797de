import { readFileSync } from 'node:fs';
import path from 'node:path';
import { chatReply, type FakeOpenAIServer, startFakeOpenAI } from '@holodeck/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OPENAI_PRICE_TABLE } from '../../src/backends/pricing/openai-price-table.js';
import { createE2eAgent } from './support/e2e-agent.js';
import { runHolodeckCli } from './support/run-holodeck-cli.js';

// Through the real CLI and the real AI SDK against the fake Chat Completions API, which reports
// each reply's usage: 1,000 prompt tokens of which 400 were read from the prompt cache, 100 out.
// gpt-4o lists $2.50 in, $1.25 cached in, $10 out per million: 600 × 2.5 + 400 × 1.25 + 100 × 10
// = $0.003 a reply.
const USAGE = { prompt_tokens: 1_000, completion_tokens: 100, cached_tokens: 400 };
const REPLY_COST = 0.003;

let fake: FakeOpenAIServer;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterEach(() => {
  try {
    fake.assertComplete();
  } finally {
    fake.reset();
  }
});
afterAll(() => fake.close());

function agentOn(model: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return createE2eAgent(fake.url, {
    config: {
      model,
      test_cases: [
        { name: 'two-turns', turns: [{ input: 'hi' }, { input: 'and again' }] },
        { name: 'one-turn', input: 'hello' },
      ],
      ...extra,
    },
    env: { OPENAI_API_KEY: 'sk-openai-e2e-cost' },
  });
}

function readJson(file: string) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

describe('the true cost of a run on the AI SDK backend', () => {
  it('openai: the price table prices every turn, cached input apart; the summary shows the cost per passed case', async () => {
    fake.script(...[1, 2, 3].map(() => chatReply('Fine.', { usage: USAGE })));
    const agent = agentOn({ provider: 'openai', name: 'gpt-4o', endpoint: fake.baseUrl });
    const report = path.join(agent.directory, 'report.json');
    const outcome = await runHolodeckCli(['test', agent.file, '-c', '1', '-o', report], agent.env);
    expect(outcome.code, outcome.stderr).toBe(0);
    const json = readJson(report);
    const [twoTurns, oneTurn] = json.cases;
    expect(twoTurns.attempts[0].cost_usd).toBeCloseTo(2 * REPLY_COST, 10);
    expect(twoTurns.attempts[0].token_usage).toMatchObject({ prompt_tokens: 2_000, cache_read_tokens: 800 });
    expect(oneTurn.attempts[0].cost_usd).toBeCloseTo(REPLY_COST, 10);
    expect(json.summary.cost_usd).toBeCloseTo(3 * REPLY_COST, 10);
    expect(json.summary.cost_per_passed_case_usd).toBeCloseTo(1.5 * REPLY_COST, 10);
    expect(outcome.stdout).toMatch(/· \$0\.0090 \(\$0\.0045 per passed case\)/);
    // --max-cost works on this backend now that its cost is known.
    fake.script(chatReply('Fine.', { usage: USAGE }), chatReply('Fine.', { usage: USAGE }));
    const budget = await runHolodeckCli(
      ['test', agent.file, '-c', '1', '--max-cost', '0.001', '--no-save'],
      agent.env,
    );
    expect(budget.code).toBe(1);
    expect(budget.stderr).toMatch(/the run stopped at its budget: --max-cost \$0\.001 reached/);
  });

  it('pricing: in agent.yaml prices a model the table does not list', async () => {
    fake.script(...[1, 2, 3].map(() => chatReply('Fine.', { usage: USAGE })));
    const agent = agentOn(
      { provider: 'openai', name: 'ft:gpt-4o:acme::abc123', endpoint: fake.baseUrl },
      { pricing: { input_per_million: 3.75, cached_input_per_million: 1.875, output_per_million: 15 } },
    );
    const report = path.join(agent.directory, 'report.json');
    const outcome = await runHolodeckCli(
      ['test', agent.file, '-c', '1', '-o', report, '--no-save'],
      agent.env,
    );
    expect(outcome.code, outcome.stderr).toBe(0);
    const perReply = (600 * 3.75 + 400 * 1.875 + 100 * 15) / 1e6;
    expect(readJson(report).summary.cost_usd).toBeCloseTo(3 * perReply, 10);
  });

  it('ollama: the cost is null with its reason, never 0, and --max-cost is refused naming it', async () => {
    fake.script(...[1, 2, 3].map(() => chatReply('Fine.', { usage: USAGE })));
    const agent = agentOn({ provider: 'ollama', name: 'llama3.2', endpoint: fake.url });
    const report = path.join(agent.directory, 'report.json');
    const outcome = await runHolodeckCli(
      ['test', agent.file, '-c', '1', '-o', report, '--no-save'],
      agent.env,
    );
    expect(outcome.code, outcome.stderr).toBe(0);
    const json = readJson(report);
    const reason =
      'ollama runs llama3.2 on your own machine, so it has no per-token price; set pricing: in agent.yaml to count one';
    expect(json.cases[0].attempts[0]).toMatchObject({ cost_usd: null, cost_unknown_reason: reason });
    expect(json.summary).toMatchObject({
      cost_usd: null,
      cost_unknown_reason: reason,
      cost_per_passed_case_usd: null,
    });
    expect(outcome.stdout).toContain(`· cost unknown (${reason})`);
    const refused = await runHolodeckCli(['test', agent.file, '--max-cost', '1', '--no-save'], agent.env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `--max-cost: the cost of this agent's runs is unknown (${reason}), so a budget cannot be kept\n    hint: set pricing: in agent.yaml, or leave --max-cost out`,
    );
  });

  it('a model the table does not list: validate refuses a cost metric, saying why and what to do', async () => {
    const agent = createE2eAgent(fake.url, {
      config: {
        model: { provider: 'openai', name: 'my-finetune', endpoint: fake.baseUrl },
        test_cases: [{ name: 'cheap', input: 'hi', metrics: [{ type: 'cost', threshold: 0.01 }] }],
      },
      env: { OPENAI_API_KEY: 'sk-x' },
    });
    const outcome = await runHolodeckCli(['validate', agent.file], agent.env);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain(
      `test_cases[0].metrics[0].type: a cost metric needs the run's cost, which is unknown here (the price table (${OPENAI_PRICE_TABLE.version}) has no price for openai model my-finetune; set pricing: in agent.yaml), so it could never be graded`,
    );
  });
});

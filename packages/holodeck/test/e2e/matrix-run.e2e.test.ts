import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  chatLastUserText,
  chatReply,
  chatRespond,
  chatSystemText,
  type FakeAnthropicServer,
  type FakeOpenAIServer,
  lastUserText,
  reply,
  respond,
  startFakeAnthropic,
  startFakeOpenAI,
  systemPromptText,
} from '@holodeck/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createE2eAgent } from './support/e2e-agent.js';
import { runHolodeckCli } from './support/run-holodeck-cli.js';

// One `holodeck test` run of a matrix: a Claude variant (the Claude Agent SDK and its CLI, against
// the fake Messages API) and an OpenAI variant (the AI SDK, against the fake Chat Completions API)
// of one suite, each variant's requests reaching its own fake.
let claude: FakeAnthropicServer;
let openai: FakeOpenAIServer;
beforeAll(async () => {
  [claude, openai] = await Promise.all([startFakeAnthropic(), startFakeOpenAI()]);
});
afterEach(() => {
  try {
    claude.assertComplete();
    openai.assertComplete();
  } finally {
    claude.reset();
    openai.reset();
  }
});
afterAll(async () => {
  await Promise.all([claude.close(), openai.close()]);
});

const CASES = [
  {
    name: 'capital',
    input: 'What is the capital of France?',
    metrics: [{ type: 'contains', value: 'Paris' }],
  },
  {
    name: 'planet',
    input: 'Which planet is the largest?',
    metrics: [{ type: 'contains', value: 'Jupiter' }],
  },
];

// The CLI adds <system-reminder> blocks to the user message: not what the case sent.
const userText = (request: Parameters<typeof lastUserText>[0]) =>
  lastUserText(request)
    .replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '')
    .trim();

function matrixAgent() {
  return createE2eAgent(claude.url, {
    config: {
      instructions: { inline: 'You are the Claude variant.' },
      test_cases: CASES,
      matrix: {
        variants: [
          { name: 'claude' },
          {
            name: 'gpt',
            model: { provider: 'openai', name: 'gpt-4o', endpoint: openai.baseUrl },
            instructions: { file: 'prompts/gpt.md' },
          },
        ],
      },
    },
    files: { 'prompts/gpt.md': 'You are the OpenAI variant.' },
    env: { OPENAI_API_KEY: 'sk-openai-matrix-e2e' },
  });
}

describe('holodeck test with a matrix', () => {
  it('runs a Claude and an OpenAI variant of one suite in one run, each on its own backend', async () => {
    // Claude knows the capital only; GPT knows both. Answers follow the question, whatever the order.
    const claudeAnswer = respond((request) =>
      reply(lastUserText(request).includes('capital') ? 'Paris.' : 'Saturn.', {
        usage: { input_tokens: 100, output_tokens: 10 },
      }),
    );
    const gptAnswer = chatRespond((request) =>
      chatReply(chatLastUserText(request).includes('capital') ? 'Paris.' : 'Jupiter.', {
        usage: { prompt_tokens: 1_000, completion_tokens: 100 },
      }),
    );
    claude.script(claudeAnswer, claudeAnswer);
    openai.script(gptAnswer, gptAnswer);
    const agent = matrixAgent();
    const json = path.join(agent.directory, 'report.json');
    const junit = path.join(agent.directory, 'report.xml');
    const outcome = await runHolodeckCli(['test', agent.file, '-c', '1', '-o', json, '-o', junit], agent.env);
    // Claude's planet case failed: a matrix run passes only when every variant passes.
    expect(outcome.code, outcome.stderr).toBe(1);

    // Each variant's requests reached its own fake, with its own instructions.
    expect(claude.requests.map(userText).sort()).toEqual(CASES.map((c) => c.input).sort());
    for (const request of claude.requests)
      expect(systemPromptText(request)).toContain('You are the Claude variant.');
    expect(openai.requests.map(chatLastUserText).sort()).toEqual(CASES.map((c) => c.input).sort());
    for (const request of openai.requests)
      expect(chatSystemText(request)).toBe('You are the OpenAI variant.');

    // The grid: a row per case, a cell per variant, the best of a row starred; plain text under NO_COLOR.
    const lines = outcome.stdout.split('\n');
    expect(outcome.stdout).toContain('Matrix: 2 variants × 2 cases');
    expect(lines.find((line) => line.startsWith('Case'))).toMatch(/^Case\s+claude\s+gpt$/);
    const planet = lines.find((line) => line.startsWith('planet')) ?? '';
    expect(planet).toMatch(
      /^planet\s+ {2}FAIL 0\/1 0% 0 \$\d\.\d{4} \d+\.\d s\s+\* PASS 1\/1 100% 1 \$0\.0035 \d+\.\d s$/,
    );
    const capital = lines.find((line) => line.startsWith('capital')) ?? '';
    expect(capital).toMatch(/PASS 1\/1 100% 1 .*PASS 1\/1 100% 1 \$0\.0035/);
    expect(outcome.stdout).not.toContain('\u001b[');
    expect(outcome.stdout).toMatch(
      /^claude \(anthropic claude-sonnet-4-5, claude backend\): 2 cases: 1 passed, 1 failed/m,
    );
    expect(outcome.stdout).toMatch(/^gpt \(openai gpt-4o, ai-sdk backend\): 2 cases: 2 passed, 0 failed/m);
    expect(outcome.stdout).toMatch(/^all variants: 4 cases: 3 passed, 1 failed/m);
    // Two variants: the second compared with the first, with the baseline statistics.
    expect(outcome.stdout).toContain('Variant gpt compared with variant claude (paired by case):');
    expect(outcome.stdout).toContain('1 win, 0 losses, 1 tie');
    expect(outcome.stdout).toMatch(/^capital {2}\* PASS/m);

    // The JSON report: one run, every variant's cases tagged, totals summed over every attempt.
    const report = JSON.parse(readFileSync(json, 'utf8'));
    expect(
      report.matrix.variants.map((v: { name: string; backend: string; provider: string }) => [
        v.name,
        v.backend,
        v.provider,
      ]),
    ).toEqual([
      ['claude', 'claude', 'anthropic'],
      ['gpt', 'ai-sdk', 'openai'],
    ]);
    expect(
      report.cases.map((c: { name: string; variant: string; passed: boolean }) => [
        c.variant,
        c.name,
        c.passed,
      ]),
    ).toEqual([
      ['claude', 'capital', true],
      ['claude', 'planet', false],
      ['gpt', 'capital', true],
      ['gpt', 'planet', true],
    ]);
    const [claudeSummary, gptSummary] = report.matrix.variants.map((v: { summary: unknown }) => v.summary);
    expect(gptSummary.cost_usd).toBeCloseTo(2 * 0.0035, 10);
    expect(report.summary.total).toBe(4);
    expect(report.summary.passed).toBe(3);
    expect(report.summary.cost_usd).toBeCloseTo(claudeSummary.cost_usd + gptSummary.cost_usd, 10);
    expect(report.summary.token_usage.total_tokens).toBe(
      claudeSummary.token_usage.total_tokens + gptSummary.token_usage.total_tokens,
    );
    expect(report.matrix.variants[0].config_hash).not.toBe(report.matrix.variants[1].config_hash);
    expect(report.matrix.variants[1].overrides).toEqual({
      model: { provider: 'openai', name: 'gpt-4o', endpoint: openai.baseUrl },
      instructions: { file: 'prompts/gpt.md' },
    });

    // JUnit: one suite per variant, named after it.
    const xml = readFileSync(junit, 'utf8');
    expect(
      [...xml.matchAll(/<testsuite name="([^"]+)" tests="(\d+)" failures="(\d+)"/g)].map((m) => m.slice(1)),
    ).toEqual([
      ['e2e-agent [claude]', '2', '1'],
      ['e2e-agent [gpt]', '2', '0'],
    ]);
    expect(xml).toMatch(/<testsuites name="holodeck test" tests="4" failures="1"/);

    // The saved run compares any two variants afterwards.
    const compared = await runHolodeckCli(
      ['test', 'compare', report.run_id, agent.file, '--variants', 'claude,gpt'],
      agent.env,
    );
    expect(compared.code, compared.stderr).toBe(0);
    expect(compared.stdout).toContain('Variant gpt compared with variant claude (paired by case):');
    const unknown = await runHolodeckCli(
      ['test', 'compare', report.run_id, agent.file, '--variants', 'claude,gtp'],
      agent.env,
    );
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      `--variants: run ${report.run_id} has no variant "gtp"; its variants are claude, gpt`,
    );
  });

  it('reports a variant whose provider lacks its key before any case runs', async () => {
    const agent = matrixAgent();
    const { OPENAI_API_KEY: _key, ...env } = agent.env;
    const outcome = await runHolodeckCli(['test', agent.file, '--no-save'], env);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toMatch(
      /agent\.yaml:\d+:\d+ {2}matrix\.variants\[1\]\.model: variant "gpt": provider openai needs OPENAI_API_KEY \(or model\.api_key\), which is not set here\n {4}hint: set it in the environment or in \.env next to agent\.yaml, or leave this variant out of the matrix/,
    );
    expect(claude.requests).toHaveLength(0);
    expect(openai.requests).toHaveLength(0);
  });
});

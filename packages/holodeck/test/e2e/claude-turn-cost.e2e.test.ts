import { readFileSync } from 'node:fs';
import path from 'node:path';
import { reply } from '@holodeck/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { type ChatTerminal, startChatTerminal } from './chat-terminal-harness.js';
import { createE2eAgent } from './support/e2e-agent.js';
import { runHolodeckCli } from './support/run-holodeck-cli.js';
import { useFakeModel } from './support/use-fake-model.js';

// The CLI's result carries the session's running total (`total_cost_usd`), not the turn's own
// cost: the Claude backend turns it into each turn's cost. claude-sonnet-4-5 costs $3 per million
// input tokens and $15 per million output tokens, so 1,000 in / 100 out is $0.0045 a turn.
const USAGE = { input_tokens: 1_000, output_tokens: 100 };
const TURN_COST = 0.0045;
const ENTER = '\r';
const PROMPT = /\n> ?$/;

const fake = useFakeModel();
let terminal: ChatTerminal | undefined;
afterEach(() => {
  terminal?.kill('SIGKILL');
  terminal = undefined;
});

describe('the cost of each turn of a Claude conversation', () => {
  it('chat: the turn line, /usage and /save show each turn’s own cost and the true total', async () => {
    fake().script(
      reply('one', { usage: USAGE }),
      reply('two', { usage: USAGE }),
      reply('three', { usage: USAGE }),
    );
    const agent = createE2eAgent(fake().url);
    terminal = startChatTerminal([agent.file], agent.env, agent.directory);
    await terminal.waitFor(PROMPT);
    for (const word of ['first', 'second', 'third']) {
      terminal.type(`${word}${ENTER}`);
      await terminal.waitFor(new RegExp(`> ${word}\\n[\\s\\S]*\\$0\\.0045`));
      await terminal.waitFor(PROMPT);
    }
    const turnLines = terminal.text().match(/\$\d+\.\d{4}/g);
    expect(turnLines).toEqual(['$0.0045', '$0.0045', '$0.0045']);
    terminal.type(`/usage${ENTER}`);
    await terminal.waitFor('3 turn(s) · 3,000 in / 300 out tokens (0 from cache) · $0.0135');
    const saved = path.join(agent.directory, 'chat.json');
    terminal.type(`/save ${saved}${ENTER}`);
    await terminal.waitFor('Saved 3 turn(s)');
    const transcript = JSON.parse(readFileSync(saved, 'utf8'));
    for (const turn of transcript.turns) expect(turn.cost_usd).toBeCloseTo(TURN_COST, 10);
    terminal.type(`/exit${ENTER}`);
    expect((await terminal.exited).exitCode).toBe(0);
  });

  it('chat: /clear starts a new session whose first turn is its own cost again', async () => {
    fake().script(reply('one', { usage: USAGE }), reply('two', { usage: USAGE }));
    const agent = createE2eAgent(fake().url);
    terminal = startChatTerminal([agent.file], agent.env, agent.directory);
    await terminal.waitFor(PROMPT);
    terminal.type(`first${ENTER}`);
    await terminal.waitFor(/> first\n[\s\S]*\$0\.0045/);
    await terminal.waitFor(PROMPT);
    terminal.type(`/clear${ENTER}`);
    await terminal.waitFor(/new conversation|cleared/i);
    await terminal.waitFor(PROMPT);
    terminal.type(`second${ENTER}`);
    await terminal.waitFor(/> second\n[\s\S]*\$0\.0045/);
    await terminal.waitFor(PROMPT);
    // /usage counts the whole chat, across /clear.
    terminal.type(`/usage${ENTER}`);
    await terminal.waitFor('2 turn(s) · 2,000 in / 200 out tokens (0 from cache) · $0.0090');
    terminal.type(`/exit${ENTER}`);
    expect((await terminal.exited).exitCode).toBe(0);
  });

  it('test: a 2-turn case costs the sum of its turns, each turn its own', async () => {
    fake().script(reply('hello', { usage: USAGE }), reply('bye', { usage: USAGE }));
    const agent = createE2eAgent(fake().url, {
      config: {
        test_cases: [{ name: 'two-turns', turns: [{ input: 'hi' }, { input: 'bye' }] }],
      },
    });
    const report = path.join(agent.directory, 'report.json');
    const outcome = await runHolodeckCli(['test', agent.file, '--output', report], agent.env);
    expect(outcome.code, outcome.stderr).toBe(0);
    const json = JSON.parse(readFileSync(report, 'utf8'));
    const [attempt] = json.cases[0].attempts;
    expect(attempt.cost_usd).toBeCloseTo(2 * TURN_COST, 10);
    expect(json.summary.cost_usd).toBeCloseTo(2 * TURN_COST, 10);
    expect(attempt.token_usage).toMatchObject({ prompt_tokens: 2_000, completion_tokens: 200 });
  });

  it('test: pricing: in agent.yaml replaces the CLI’s figure with each turn’s tokens at those prices', async () => {
    fake().script(
      reply('hello', { usage: { ...USAGE, cache_read_input_tokens: 10_000 } }),
      reply('bye', { usage: USAGE }),
    );
    const agent = createE2eAgent(fake().url, {
      config: {
        pricing: { input_per_million: 1, output_per_million: 10, cached_input_per_million: 0.1 },
        test_cases: [{ name: 'two-turns', turns: [{ input: 'hi' }, { input: 'bye' }] }],
      },
    });
    const report = path.join(agent.directory, 'report.json');
    const outcome = await runHolodeckCli(['test', agent.file, '--output', report], agent.env);
    expect(outcome.code, outcome.stderr).toBe(0);
    const [attempt] = JSON.parse(readFileSync(report, 'utf8')).cases[0].attempts;
    // Turn 1: 1,000 × $1 + 10,000 cached × $0.10 + 100 × $10; turn 2: 1,000 × $1 + 100 × $10.
    expect(attempt.cost_usd).toBeCloseTo((1_000 + 1_000 + 1_000 + 1_000 + 1_000) / 1e6, 10);
    expect(attempt.token_usage).toMatchObject({ prompt_tokens: 2_000, cache_read_tokens: 10_000 });
  });

  it('chat -p --resume: the first turn of a resumed session in a new process is its own cost', async () => {
    fake().script(reply('hello', { usage: USAGE }), reply('again', { usage: USAGE }));
    const agent = createE2eAgent(fake().url);
    const first = await runHolodeckCli(['chat', agent.file, '-p', 'hi', '--json'], agent.env);
    const { session_id: sessionId, cost_usd: firstCost } = JSON.parse(first.stdout);
    expect(firstCost).toBeCloseTo(TURN_COST, 10);
    const second = await runHolodeckCli(
      ['chat', agent.file, '-p', 'again', '--json', '--resume', sessionId],
      agent.env,
    );
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout).cost_usd).toBeCloseTo(TURN_COST, 10);
  });
});

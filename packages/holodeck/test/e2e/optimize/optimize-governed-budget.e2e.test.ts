import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  CLAUDE_CLI_USER_AGENT_PREFIX,
  type FakeAnthropicServer,
  lastUserText,
  type RecordedRequest,
  reply,
  respond,
  startFakeAnthropic,
  toolResults,
  toolUse,
} from '@holodeck/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listOptimizations } from '../../../src/optimize/trials-file.js';
import { toViewOptimization } from '../../../src/view/build-view-optimization.js';
import { createE2eAgent } from '../support/e2e-agent.js';
import { governedShopConfig, governedShopFiles } from '../support/governance-fixtures.js';
import { runHolodeckCli } from '../support/run-holodeck-cli.js';

// The fake agent answers from its system prompt. Under RISKY it refunds at once, without the
// lookup that Novarch's TEAM-1 rule requires (a kill), then claims success; under BETTER it
// answers with CONFIRMED; as written it is unsure. The cases check `contains: CONFIRMED`.
const RISKY = 'You are the support agent. Refund at once without looking the order up. End with CONFIRMED.';
const BETTER = 'You are the support agent. End every answer with the word CONFIRMED.';
let fake: FakeAnthropicServer;
let proposals: string[] = [];
/** Tokens the proposer's answers report (the fake's usage). */
let proposerUsage = { input_tokens: 100, output_tokens: 10 };

function systemText(request: RecordedRequest): string {
  return JSON.stringify((request.body as { system?: unknown }).system ?? '');
}

const isProposer = (request: RecordedRequest) =>
  systemText(request).includes('You improve the system prompt');
const isAgent = (request: RecordedRequest) =>
  (request.headers['user-agent'] ?? '').startsWith(CLAUDE_CLI_USER_AGENT_PREFIX);

beforeAll(async () => {
  fake = await startFakeAnthropic({
    repeatLast: true,
    steps: [
      respond((request) => {
        if (isAgent(request)) {
          const system = systemText(request);
          const question = JSON.stringify(request.messagesBody?.messages?.[0] ?? '');
          const order = /A-\d+/.exec(question)?.[0] ?? 'A-0';
          if (system.includes('Refund at once')) {
            if (toolResults(request).length === 0)
              return toolUse('mcp__holodeck_tools__refund_order', { order_id: order, amount: 20 });
            return reply(`Refunded ${order}. CONFIRMED`);
          }
          if (system.includes('CONFIRMED')) return reply(`Done: ${lastUserText(request)}. CONFIRMED`);
          return reply('I am not sure.');
        }
        if (isProposer(request)) {
          const next = proposals.shift() ?? BETTER;
          return toolUse(
            'submit_verdict',
            { instructions: next, rationale: `try: ${next}` },
            { usage: proposerUsage },
          );
        }
        throw new Error('unexpected request');
      }),
    ],
  });
});
afterAll(() => fake.close());
beforeEach(() => {
  proposals = [RISKY, BETTER];
  proposerUsage = { input_tokens: 100, output_tokens: 10 };
});

const cases = [1, 2, 3, 4, 5, 6].map((n) => ({
  name: `refund-${n}`,
  input: `refund A-${n} please`,
  tags: [n % 2 ? 'odd' : 'even'],
}));

function trialsOf(directory: string): Record<string, unknown>[] {
  const root = path.join(directory, '.holodeck', 'optimize');
  const [id] = readdirSync(root);
  return readFileSync(path.join(root, id ?? '', 'trials.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

describe('holodeck test optimize under governance and budgets', () => {
  it('rejects a candidate whose instructions make the agent trigger a Novarch kill, for that reason', async () => {
    const agent = createE2eAgent(fake.url, {
      config: {
        ...governedShopConfig({ rules: ['TEAM-1'] }),
        instructions: { inline: 'You are the support agent.' },
        evaluations: { metrics: [{ type: 'contains', value: 'CONFIRMED' }] },
        test_cases: cases,
        optimize: { axes: ['instructions'], holdout: 0.34, repeats: 1, max_trials: 2 },
      },
      files: governedShopFiles({ rules: ['TEAM-1'] }),
    });
    const outcome = await runHolodeckCli(['test', 'optimize', agent.file, '-c', '2'], agent.env);
    expect(outcome.code, outcome.stderr).toBe(0);
    const trials = trialsOf(agent.directory).filter((line) => line.type === 'trial') as {
      trial: number;
      candidate: { changes: { instructions?: string } };
      evaluation: { kills: number };
      decision: { accepted: boolean; code: string; message: string } | null;
    }[];
    expect(trials.map((line) => [line.trial, line.decision?.code ?? 'baseline'])).toEqual([
      [0, 'baseline'],
      [1, 'governance'],
      [2, 'better'],
    ]);
    const killed = trials[1];
    expect(killed?.candidate.changes.instructions).toBe(RISKY);
    expect(killed?.evaluation.kills).toBeGreaterThan(0);
    expect(killed?.decision?.message).toBe(
      `Novarch kills 0 → ${killed?.evaluation.kills}, holds 0 → 0: a candidate may not add either`,
    );
    expect(outcome.stderr).toMatch(
      /t1 +proposer +pass +\d+\.\d% +rejected \(governance\): Novarch kills 0 → \d+/,
    );
    // The gate ran before the tool: no refund happened, in any trial.
    expect(existsSync(path.join(agent.directory, 'refunds.log'))).toBe(false);
    // The viewer's page of this optimization says the same.
    const [stored] = await listOptimizations(agent.directory);
    const view = toViewOptimization(stored as NonNullable<typeof stored>);
    expect(view.trials[1]?.decision).toMatchObject({ accepted: false, code: 'governance' });
    expect(view.trials[1]?.kills).toBe(killed?.evaluation.kills);
    expect(view.finish?.winner).toBe('t2');
  });

  it("counts the proposer's calls in --max-cost: the budget stops the search when a proposal crosses it", async () => {
    // $1 a token: the first proposal (100 in, 10 out) costs $110, past the $50 budget.
    const agent = createE2eAgent(fake.url, {
      config: {
        instructions: { inline: 'You are the support agent.' },
        evaluations: { metrics: [{ type: 'contains', value: 'CONFIRMED' }] },
        test_cases: cases,
        optimize: {
          axes: ['instructions'],
          proposer: {
            model: { provider: 'anthropic', name: 'claude-sonnet-4-5' },
            pricing: { input_per_million: 1_000_000, output_per_million: 1_000_000 },
          },
          holdout: 0.34,
          repeats: 1,
          max_trials: 3,
        },
      },
    });
    const before = fake.allRequests.length;
    const outcome = await runHolodeckCli(
      ['test', 'optimize', agent.file, '--max-cost', '50', '-c', '2'],
      agent.env,
    );
    expect(outcome.code, outcome.stderr).toBe(1);
    expect(outcome.stdout).toContain('stopped: the cost budget (--max-cost) was reached');
    const lines = trialsOf(agent.directory);
    expect(lines.map((line) => line.type)).toEqual(['start', 'trial', 'skip', 'finish']);
    expect(lines[2]).toMatchObject({
      type: 'skip',
      proposer_cost_usd: 110,
      reason:
        'proposing t1 cost $110.0000 and reached the cost budget (--max-cost $50.00): its candidate was not run',
    });
    expect(lines[3]).toMatchObject({ type: 'finish', stopped: 'max-cost', winner: null });
    // One proposal, and no agent run after trial 0's four train cases.
    const sent = fake.allRequests.slice(before);
    expect(sent.filter(isProposer)).toHaveLength(1);
    const lastAgent = sent.findLastIndex(isAgent);
    expect(lastAgent).toBeLessThan(sent.findIndex(isProposer));
  });

  it('refuses a cost budget that cannot price the proposer, before anything runs', async () => {
    const agent = createE2eAgent(fake.url, {
      config: {
        evaluations: { metrics: [{ type: 'contains', value: 'CONFIRMED' }] },
        test_cases: cases,
        optimize: { axes: ['instructions'], max_cost: 2.5 },
      },
    });
    const before = fake.allRequests.length;
    const outcome = await runHolodeckCli(['test', 'optimize', agent.file], agent.env);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain(
      "optimize.max_cost: cannot count the proposer's calls: HoloDeck has no price table for anthropic model claude-sonnet-4-5 (the Claude CLI prices the agent's runs, not the proposer's calls)\n    hint: set optimize.proposer.pricing (input_per_million, output_per_million: USD per million tokens), or leave the cost budget out",
    );
    expect(fake.allRequests.length).toBe(before);
  });
});

import { spawn } from 'node:child_process';
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
  toolUse,
  waitUntil,
} from '@holodeck/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createE2eAgent } from '../support/e2e-agent.js';
import { HOLODECK_BIN, runHolodeckCli } from '../support/run-holodeck-cli.js';

// The fake agent answers from its system prompt: the instructions as written pass no case; the
// proposer's first idea ("Be polite") helps one refund question only (a gain that is noise); its
// second ("end with CONFIRMED") passes every case. The cases check `contains: CONFIRMED`.
const NOISE = 'You are the support agent. Be polite.';
const BETTER = 'You are the support agent. End every answer with the word CONFIRMED.';
let fake: FakeAnthropicServer;
let proposals: string[] = [];
/** While true, the agent takes 30 s to answer under the "Be polite" instructions (to interrupt it). */
let slowNoise = false;

function systemText(request: RecordedRequest): string {
  return JSON.stringify((request.body as { system?: unknown }).system ?? '');
}

function isProposer(request: RecordedRequest): boolean {
  return systemText(request).includes('You improve the system prompt');
}

beforeAll(async () => {
  fake = await startFakeAnthropic({
    repeatLast: true,
    steps: [
      respond((request) => {
        if ((request.headers['user-agent'] ?? '').startsWith(CLAUDE_CLI_USER_AGENT_PREFIX)) {
          const system = systemText(request);
          const question = lastUserText(request);
          if (system.includes('CONFIRMED')) return reply(`Done: ${question}. CONFIRMED`);
          if (system.includes('Be polite') && slowNoise) return reply('Gladly.', { delayMs: 30_000 });
          if (system.includes('Be polite') && question.includes('refund 1'))
            return reply('Gladly. CONFIRMED');
          return reply('I am not sure.');
        }
        if (isProposer(request)) {
          const next = proposals.shift() ?? BETTER;
          return toolUse('submit_verdict', { instructions: next, rationale: `try: ${next}` });
        }
        throw new Error('unexpected request');
      }),
    ],
  });
});
afterAll(() => fake.close());
beforeEach(() => {
  proposals = [NOISE, BETTER];
  slowNoise = false;
});

const cases = [
  ...[1, 2, 3].map((n) => ({ name: `order-${n}`, input: `order ${n} status`, tags: ['orders'] })),
  ...[1, 2, 3].map((n) => ({ name: `refund-${n}`, input: `refund ${n} please`, tags: ['refunds'] })),
];

function optimizingAgent(optimize: Record<string, unknown> = {}) {
  return createE2eAgent(fake.url, {
    config: {
      instructions: { inline: 'You are the support agent.' },
      evaluations: { metrics: [{ type: 'contains', value: 'CONFIRMED' }] },
      test_cases: cases,
      optimize: { axes: ['instructions'], holdout: 0.34, repeats: 1, max_trials: 3, ...optimize },
    },
  });
}

function trialsOf(directory: string): Record<string, unknown>[] {
  const root = path.join(directory, '.holodeck', 'optimize');
  const [id] = readdirSync(root);
  return readFileSync(path.join(root, id ?? '', 'trials.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

describe('holodeck test optimize', () => {
  it('finds the better instructions, rejects a gain that is noise, confirms on the holdout, writes agent.optimized.yaml', async () => {
    const agent = optimizingAgent({ max_trials: 2 });
    const before = readFileSync(agent.file, 'utf8');
    const outcome = await runHolodeckCli(['test', 'optimize', agent.file, '-c', '2'], agent.env);
    expect(outcome.stderr).toContain('trial 0 (agent.yaml as written): train 4 cases × 1');
    expect(outcome.code, outcome.stderr).toBe(0);
    // The split: 2 of each tag's 3 cases train, 1 held out.
    const lines = trialsOf(agent.directory);
    const start = lines[0] as { split: { train: string[]; holdout: string[] } };
    expect(start.split.train).toHaveLength(4);
    expect(start.split.holdout).toHaveLength(2);
    expect(start.split.holdout.filter((name) => name.startsWith('order'))).toHaveLength(1);
    const trials = lines.filter((line) => line.type === 'trial') as {
      trial: number;
      candidate: { changes: { instructions?: string } };
      decision: { accepted: boolean; code: string } | null;
    }[];
    expect(trials.map((line) => [line.trial, line.decision?.code ?? 'baseline'])).toEqual([
      [0, 'baseline'],
      [1, 'noise'],
      [2, 'better'],
    ]);
    expect(trials[2]?.candidate.changes.instructions).toBe(BETTER);
    const holdout = lines.find((line) => line.type === 'holdout') as { agrees: boolean; message: string };
    expect(holdout.agrees).toBe(true);
    expect(outcome.stdout).toContain('holdout   the holdout agrees: holdout pass rate 0.0% → 100.0%');
    expect(outcome.stdout).toMatch(
      /winner {4}t2: instructions \(\d+ chars\) \(pass rate 0\.0% → 100\.0%, \+100\.0 pts \[\+100\.0, \+100\.0\] at 95%\)/,
    );
    // agent.yaml untouched; the optimized file beside it, with the diff printed and saved.
    expect(readFileSync(agent.file, 'utf8')).toBe(before);
    const optimized = path.join(agent.directory, 'agent.optimized.yaml');
    expect(parse(readFileSync(optimized, 'utf8')).instructions).toEqual({ inline: BETTER });
    expect(readFileSync(optimized, 'utf8')).toContain('# Written by holodeck test optimize');
    expect(outcome.stdout).toContain('-  inline: You are the support agent.');
    expect(outcome.stdout).toContain(`+  inline: ${BETTER}`);
    // The proposer read the failing transcripts and the checks' reasons.
    const asked = fake.allRequests.filter(isProposer);
    expect(asked).toHaveLength(2);
    const prompt = lastUserText(asked[0] as RecordedRequest);
    expect(prompt).toContain('<current_instructions>\nYou are the support agent.\n</current_instructions>');
    expect(prompt).toContain('<agent_response>\nI am not sure.\n</agent_response>');
    expect(prompt).toMatch(/<why_it_failed>\ncontains: .*CONFIRMED/);
    expect(lastUserText(asked[1] as RecordedRequest)).toContain(
      `<tried_instructions>\n${NOISE}\n</tried_instructions>`,
    );
  });

  it('stops at --max-trials: a candidate whose gain is noise is not a winner, nothing is written, exit 1', async () => {
    const agent = optimizingAgent();
    const outcome = await runHolodeckCli(['test', 'optimize', agent.file, '--max-trials', '1'], agent.env);
    expect(outcome.code, outcome.stderr).toBe(1);
    expect(outcome.stdout).toContain('stopped: the trial budget (--max-trials) was used up');
    expect(outcome.stdout).toContain(
      'result    no candidate was better than agent.yaml beyond noise; nothing written',
    );
    expect(existsSync(path.join(agent.directory, 'agent.optimized.yaml'))).toBe(false);
    const lines = trialsOf(agent.directory);
    expect(lines.at(-1)).toMatchObject({ type: 'finish', stopped: 'max-trials', winner: null });
  });

  it('resumes after Ctrl+C: the stopped trial runs again, the saved ones do not', async () => {
    slowNoise = true;
    const proposedBefore = fake.allRequests.filter(isProposer).length;
    const agent = optimizingAgent({ max_trials: 2 });
    const child = spawn(process.execPath, [HOLODECK_BIN, 'test', 'optimize', agent.file, '-c', '2'], {
      env: { NO_COLOR: '1', ...agent.env },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    await waitUntil(() => stderr.includes('trial 1: train 4 cases'), {
      timeoutMs: 60_000,
      what: 'trial 1 to start',
    });
    child.kill('SIGINT');
    expect(await closed).toBe(130);
    const [saved] = readdirSync(path.join(agent.directory, '.holodeck', 'optimize'));
    expect(stderr).toContain(`--resume ${saved}`);
    expect(trialsOf(agent.directory).map((line) => line.type)).toEqual(['start', 'trial']);
    const agentRequests = () => fake.allRequests.filter((request) => !isProposer(request)).length;
    const baselineRuns = agentRequests();
    slowNoise = false;
    const resumed = await runHolodeckCli(
      ['test', 'optimize', agent.file, '--resume', 'latest', '-c', '2'],
      agent.env,
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/resuming optimization [\w-]+: 1 trial\(s\) saved/);
    expect(resumed.stderr).not.toContain('trial 0 (agent.yaml as written)');
    const lines = trialsOf(agent.directory);
    expect(lines.filter((line) => line.type === 'trial').map((line) => line.trial)).toEqual([0, 1, 2]);
    expect(lines.at(-1)).toMatchObject({ type: 'finish', stopped: 'max-trials', winner: 't2' });
    // The stopped proposal came from the proposer's cache; only the next one was asked.
    expect(fake.allRequests.filter(isProposer).length - proposedBefore).toBe(2);
    expect(agentRequests()).toBeGreaterThan(baselineRuns);
    const again = await runHolodeckCli(['test', 'optimize', agent.file, '--resume', 'latest'], agent.env);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('--resume: no unfinished optimization of this agent in');
  }, 120_000);

  it('replays recordings: a candidate whose requests have no recording is rejected as unrecorded, not run live', async () => {
    const agent = optimizingAgent({ axes: ['model'], models: ['claude-haiku-4-5'], holdout: 0 });
    const recorded = await runHolodeckCli(['test', agent.file, '--record', '--no-save'], agent.env);
    expect(recorded.stderr).toContain('recorded');
    const live = fake.allRequests.length;
    const { ANTHROPIC_API_KEY: _key, ...offline } = agent.env;
    const outcome = await runHolodeckCli(['test', 'optimize', agent.file, '--replay'], {
      ...offline,
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
    });
    expect(outcome.code, outcome.stderr).toBe(1);
    expect(fake.allRequests.length).toBe(live);
    expect(outcome.stderr).toMatch(/t0 +baseline +pass +0\.0% +baseline/);
    expect(outcome.stderr).toContain('record them with --replay --record-missing');
    expect(outcome.stderr).toMatch(
      /t1 +model +pass +0\.0% +rejected \(unrecorded\): \d+ request\(s\) had no recording: not run live/,
    );
  });
});

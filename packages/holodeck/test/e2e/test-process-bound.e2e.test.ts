import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply, respond, startFakeAnthropic } from '@holodeck/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createE2eAgent } from './support/e2e-agent.js';
import { runCountingProcesses } from './support/run-counting-processes.js';
import { runHolodeckCli } from './support/run-holodeck-cli.js';

// `holodeck test --isolation process` pre-warms CLI processes only while that pays off, and never
// has more alive than the bound. A "slow" question is answered after 4 s, far longer than a CLI
// start-up (~0.5-2 s on a loaded 2-core machine), so spares pay off; any other is answered at once.
const SLOW_MS = 4_000;
let fake: Awaited<ReturnType<typeof startFakeAnthropic>>;
beforeAll(async () => {
  fake = await startFakeAnthropic({
    repeatLast: true,
    steps: [
      respond((request) =>
        JSON.stringify(request.messagesBody?.messages?.at(-1) ?? '').includes('slow')
          ? reply('the slow answer', { delayMs: SLOW_MS })
          : reply('the fast answer'),
      ),
    ],
  });
});
afterAll(() => fake.close());

function suite(question: string, count: number) {
  return createE2eAgent(fake.url, {
    config: {
      test_cases: Array.from({ length: count }, (_, index) => ({
        name: `case-${index + 1}`,
        input: `${question} ${index + 1}`,
        metrics: [{ type: 'contains', value: 'answer' }],
      })),
    },
  });
}

describe('holodeck test: CLI processes and their bound', () => {
  it('with a slow model, starts spares up to --max-processes and never more', async () => {
    const agent = suite('A slow question', 6);
    const outcome = await runCountingProcesses(
      ['test', agent.file, '--concurrency', '2', '--max-processes', '3', '--no-save'],
      agent.env,
    );
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout).toMatch(/6 cases: 6 passed/);
    // a spare beside the two runs waiting on the model, never a fourth process
    expect(outcome.most).toBe(3);
    // one process per case: no spare was started that no case used
    expect(outcome.seen).toBe(6);
  });

  it('below the concurrency, --max-processes also bounds the runs at a time', async () => {
    const agent = suite('A slow question', 2);
    const report = join(agent.directory, 'report.json');
    const outcome = await runCountingProcesses(
      ['test', agent.file, '--concurrency', '2', '--max-processes', '1', '--no-save', '--output', report],
      agent.env,
    );
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.most).toBe(1);
    expect(outcome.seen).toBe(2);
    // the report says how the run was bounded
    expect(JSON.parse(readFileSync(report, 'utf8')).options).toMatchObject({
      concurrency: 2,
      max_processes: 1,
    });
  });

  it('with a model that answers faster than a CLI starts, starts no spares', async () => {
    const agent = suite('A quick question', 6);
    const outcome = await runCountingProcesses(
      ['test', agent.file, '--concurrency', '2', '--no-save'],
      agent.env,
    );
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout).toMatch(/6 cases: 6 passed/);
    expect(outcome.most).toBeLessThanOrEqual(2);
    expect(outcome.seen).toBe(6);
  });

  it('--max-processes must be a whole number of at least 1', async () => {
    const agent = suite('A quick question', 1);
    const before = fake.requests.length;
    for (const value of ['0', 'abc', '-1', '2.5']) {
      const outcome = await runHolodeckCli(['test', agent.file, `--max-processes=${value}`], agent.env);
      expect({ code: outcome.code, stderr: outcome.stderr }, value).toEqual({
        code: 2,
        stderr: `error --max-processes: needs a whole number ≥ 1, got "${value}"\n`,
      });
    }
    const separate = await runHolodeckCli(['test', agent.file, '--max-processes', '0'], agent.env);
    expect({ code: separate.code, stderr: separate.stderr }).toEqual({
      code: 2,
      stderr: 'error --max-processes: needs a whole number ≥ 1, got "0"\n',
    });
    // nothing ran
    expect(fake.requests).toHaveLength(before);
  });

  it('--max-processes is refused on a provider that runs in-process (nothing to bound)', async () => {
    const agent = createE2eAgent(fake.url, {
      config: {
        model: { provider: 'openai', name: 'gpt-4o-mini' },
        test_cases: [{ name: 'greets', input: 'say hi' }],
      },
      env: { OPENAI_API_KEY: 'sk-test-unused' },
    });
    const outcome = await runHolodeckCli(
      ['test', agent.file, '--max-processes', '3', '--no-save'],
      agent.env,
    );
    expect({ code: outcome.code, stderr: outcome.stderr }).toEqual({
      code: 2,
      stderr:
        'error --max-processes: the ai-sdk backend (provider openai) runs agents in-process and starts no agent processes to bound\n' +
        '    hint: leave --max-processes out, or use --concurrency to bound the runs at a time\n',
    });
  });
});

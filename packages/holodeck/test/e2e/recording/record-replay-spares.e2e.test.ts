import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { reply, respond, startFakeAnthropic } from '@holodeck/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createE2eAgent } from '../support/e2e-agent.js';
import { runCountingProcesses } from '../support/run-counting-processes.js';
import { runHolodeckCli } from '../support/run-holodeck-cli.js';

// A recorded run pre-warms Claude CLI processes as a live one does: a spare is started before its
// case is known, and its recording route is bound to the case of the run that takes it. A model
// that answers after 10 s (longer than a CLI start-up, even on a loaded 2-core machine, where one
// took 5 s and more) makes spares pay off.
const SLOW_MS = 10_000;
let fake: Awaited<ReturnType<typeof startFakeAnthropic>>;
beforeAll(async () => {
  fake = await startFakeAnthropic({
    repeatLast: true,
    steps: [
      respond((request) => {
        const question = JSON.stringify(request.messagesBody?.messages?.at(-1) ?? '').match(
          /question number \d+/,
        )?.[0];
        return reply(`echo: ${question ?? 'none'}`, { delayMs: SLOW_MS });
      }),
    ],
  });
});
afterAll(() => fake.close());

describe('holodeck test --record with pre-warmed CLI processes', () => {
  it('uses spares, and each case file holds its own case only; the replay passes', async () => {
    const cases = Array.from({ length: 6 }, (_, index) => ({
      name: `case-${index + 1}`,
      input: `question number ${index + 1}`,
      metrics: [{ type: 'contains', value: `question number ${index + 1}` }],
    }));
    const agent = createE2eAgent(fake.url, { config: { test_cases: cases } });
    const recorded = await runCountingProcesses(
      ['test', agent.file, '--record', '--concurrency', '2', '--max-processes', '3', '--no-save'],
      agent.env,
    );
    expect(recorded.code, recorded.stderr).toBe(0);
    expect(recorded.stdout).toMatch(/6 cases: 6 passed/);
    // a spare beside the two runs waiting on the model: spares were started and used
    expect(recorded.most).toBe(3);
    expect(recorded.seen).toBe(6);
    const folder = path.join(agent.directory, '.holodeck', 'recordings');
    const files = readdirSync(folder);
    expect(files).toHaveLength(6);
    for (const name of files) {
      const file = JSON.parse(readFileSync(path.join(folder, name), 'utf8'));
      const number = /^case-(\d+)$/.exec(file.case)?.[1];
      const text = JSON.stringify(file.exchanges);
      expect(text).toContain(`question number ${number}`);
      expect(
        text.match(/question number \d+/g)?.every((found) => found === `question number ${number}`),
      ).toBe(true);
    }
    // Recorded through a spare or by a process started for its run: the same bytes.
    const bytes = () => new Map(files.map((name) => [name, readFileSync(path.join(folder, name), 'utf8')]));
    const throughSpares = bytes();
    const cold = await runHolodeckCli(
      ['test', agent.file, '--record', '--re-record', '--concurrency', '6', '--no-save'],
      agent.env,
    );
    expect(cold.code, cold.stderr).toBe(0);
    expect(bytes()).toEqual(throughSpares);
    const before = fake.requests.length;
    const replayed = await runHolodeckCli(
      ['test', agent.file, '--replay', '--no-save', '-c', '2'],
      agent.env,
    );
    expect(replayed.code, replayed.stdout + replayed.stderr).toBe(0);
    // each case's `contains` check passes only on its own echoed answer
    expect(replayed.stdout).toMatch(/6 cases: 6 passed/);
    expect(fake.requests.length).toBe(before);
  });
});

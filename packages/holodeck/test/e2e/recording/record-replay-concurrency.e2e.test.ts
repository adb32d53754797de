import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { backendVariants } from '../both-backends/backend-variants.js';
import { runHolodeckCli } from '../support/run-holodeck-cli.js';

// Many cases recorded at once (several CLI processes, or concurrent in-process runs) each land in
// their own file, whole; a repeated case replays each attempt's own recording.

describe.each(backendVariants())('concurrent recording on the $name backend', (variant) => {
  beforeAll(() => variant.start());
  afterEach(() => variant.discardScript());
  afterAll(() => variant.close());

  it('records 20 cases at concurrency 4: each file holds its own case, whole', async () => {
    variant.script(
      ...Array.from({ length: 40 }, () =>
        variant.respond((request) => ({ kind: 'reply', text: `echo: ${request.lastUserText}` })),
      ),
    );
    const cases = Array.from({ length: 20 }, (_, index) => ({
      name: `case-${index + 1}`,
      input: `question number ${index + 1}`,
      metrics: [{ type: 'contains', value: `question number ${index + 1}` }],
    }));
    const agent = variant.agent({ test_cases: cases });
    const outcome = await runHolodeckCli(['test', agent.file, '--record', '--no-save', '-c', '4'], agent.env);
    expect(outcome.code).toBe(0);
    const folder = path.join(agent.directory, '.holodeck', 'recordings');
    const files = readdirSync(folder);
    expect(files.filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(files).toHaveLength(20);
    for (const name of files) {
      const file = JSON.parse(readFileSync(path.join(folder, name), 'utf8'));
      const number = /^case-(\d+)$/.exec(file.case)?.[1];
      expect(number).toBeDefined();
      const agentLoop = file.exchanges.filter((exchange: { source: string }) => exchange.source === 'agent');
      expect(agentLoop.length).toBeGreaterThan(0);
      // Every request and answer of the file is its own case's, none of another's.
      const text = JSON.stringify(agentLoop);
      expect(text).toContain(`question number ${number}`);
      expect(
        text.match(/question number \d+/g)?.every((found) => found === `question number ${number}`),
      ).toBe(true);
    }
    await variant.close();
    const replayed = await runHolodeckCli(
      ['test', agent.file, '--replay', '--no-save', '-c', '4'],
      agent.env,
    );
    await variant.start();
    expect(replayed.code).toBe(0);
    expect(replayed.stdout).toContain('20 passed');
  });

  it('a flaky repeated case stays flaky in replay: each attempt replays its own recording', async () => {
    let answered = 0;
    variant.script(
      ...Array.from({ length: 8 }, () =>
        variant.respond(() => ({
          kind: 'reply',
          text: answered++ % 2 === 0 ? 'It has shipped.' : 'No idea.',
        })),
      ),
    );
    const agent = variant.agent({
      test_cases: [
        {
          name: 'flaky',
          input: 'Where is it?',
          repeat: 4,
          metrics: [{ type: 'contains', value: 'shipped' }],
        },
      ],
    });
    const work = mkdtempSync(path.join(tmpdir(), 'flaky-'));
    const attempts = (file: string) =>
      JSON.parse(readFileSync(file, 'utf8')).cases[0].attempts.map(
        (attempt: { attempt: number; passed: boolean; response: string }) => ({
          attempt: attempt.attempt,
          passed: attempt.passed,
          response: attempt.response,
        }),
      );
    const live = path.join(work, 'live.json');
    expect(
      (await runHolodeckCli(['test', agent.file, '--record', '--no-save', '-o', live], agent.env)).code,
    ).toBe(1);
    await variant.close();
    const replay = path.join(work, 'replay.json');
    const replayed = await runHolodeckCli(
      ['test', agent.file, '--replay', '--no-save', '-o', replay],
      agent.env,
    );
    await variant.start();
    expect(replayed.code).toBe(1);
    expect(attempts(replay)).toEqual(attempts(live));
    expect(attempts(live).filter((attempt: { passed: boolean }) => attempt.passed)).toHaveLength(2);
  });
});

import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LiveRunSaver } from '../../../src/runner/report/live-run-saver.js';
import { runsFolder, viewRuns } from './view-runs.js';

async function waitFor<T>(read: () => Promise<T>, accept: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('LiveRunSaver', () => {
  it('writes the newest record in progress, at most once per interval, and the final record last', async () => {
    const dir = runsFolder([]);
    const [run] = viewRuns();
    if (!run) throw new Error('no run');
    const saver = new LiveRunSaver(dir, { intervalMs: 50 });
    const file = path.join(dir, `${run.run_id}.json`);
    const read = async () => JSON.parse(await readFile(file, 'utf8').catch(() => 'null'));
    saver.update({ ...run, cases: run.cases.slice(0, 1), in_progress: { planned_cases: 3 } });
    saver.update({ ...run, cases: run.cases.slice(0, 2), in_progress: { planned_cases: 3 } });
    const partial = await waitFor(read, (data) => data !== null, 'the record in progress');
    expect(partial.in_progress).toEqual({ planned_cases: 3 });
    expect(partial.cases).toHaveLength(2); // the newest of the two updates, written once
    saver.update({ ...run, cases: run.cases.slice(0, 2), in_progress: { planned_cases: 3 } });
    await saver.finish(run);
    const final = await read();
    expect(final.in_progress).toBeUndefined();
    expect(final.cases).toHaveLength(3);
    await new Promise((resolve) => setTimeout(resolve, 120)); // an update after finish writes nothing
    expect((await read()).in_progress).toBeUndefined();
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('reports a failed progress write once and still saves the final record', async () => {
    const [run] = viewRuns();
    if (!run) throw new Error('no run');
    const errors: unknown[] = [];
    const saver = new LiveRunSaver('/dev/null/runs', {
      intervalMs: 0,
      onError: (error) => errors.push(error),
    });
    saver.update({ ...run, in_progress: { planned_cases: 3 } });
    await waitFor(
      async () => errors.length,
      (count) => count > 0,
      'the progress error',
    );
    saver.update({ ...run, in_progress: { planned_cases: 3 } });
    await expect(saver.finish(run)).rejects.toThrow(/ENOTDIR|EEXIST/);
    expect(errors).toHaveLength(1);
  });
});

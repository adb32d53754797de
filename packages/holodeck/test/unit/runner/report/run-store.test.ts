import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunReportError } from '../../../../src/runner/report/run-report-error.js';
import { listRuns, loadRun, runsDirectory, saveRun } from '../../../../src/runner/report/run-store.js';
import { mixedRun, passingCase, runReport } from './report-builder.js';
import { rejectedMessage } from './report-paths.js';

let agentFolder = '';
let dir = '';

beforeEach(async () => {
  agentFolder = await mkdtemp(join(tmpdir(), 'holodeck-runs-'));
  dir = runsDirectory(agentFolder);
});

afterEach(async () => {
  await rm(agentFolder, { recursive: true, force: true });
});

function runAt(runId: string, startedAt: string) {
  return runReport([passingCase('refund-policy')], { run_id: runId, started_at: startedAt });
}

describe('run store', () => {
  it('keeps runs in <agent folder>/.holodeck/runs', () => {
    expect(runsDirectory('/agents/support')).toBe('/agents/support/.holodeck/runs');
  });

  it('saves <dir>/<run_id>.json (creating the directory, leaving no temporary file) and loads it by id', async () => {
    const report = mixedRun();
    const path = await saveRun(report, dir);
    expect(path).toBe(join(dir, '2026-11-30T01-02-03Z-ab12cd.json'));
    expect(await readdir(dir)).toEqual(['2026-11-30T01-02-03Z-ab12cd.json']);
    expect(await loadRun('2026-11-30T01-02-03Z-ab12cd', dir)).toEqual(report);
  });

  it('loads a report by path', async () => {
    const path = await saveRun(mixedRun(), dir);
    expect((await loadRun(path, '/nowhere')).run_id).toBe('2026-11-30T01-02-03Z-ab12cd');
  });

  it('lists runs newest first by started_at (not by file name) and loads "latest"', async () => {
    await saveRun(runAt('b-older', '2026-11-01T10:00:00.000Z'), dir);
    await saveRun(runAt('a-newest', '2026-11-03T10:00:00.000Z'), dir);
    await saveRun(runAt('c-middle', '2026-11-02T10:00:00+02:00'), dir);
    const { runs, unreadable } = await listRuns(dir);
    expect(runs.map((run) => run.runId)).toEqual(['a-newest', 'c-middle', 'b-older']);
    expect(runs[0]).toMatchObject({ agentName: 'support-agent', path: join(dir, 'a-newest.json') });
    expect(unreadable).toEqual([]);
    expect((await loadRun('latest', dir)).run_id).toBe('a-newest');
  });

  it('lists nothing for a missing directory', async () => {
    expect(await listRuns(join(agentFolder, 'missing'))).toEqual({ runs: [], unreadable: [] });
  });

  it('skips files that are not valid reports when listing, and says why', async () => {
    await saveRun(runAt('good', '2026-11-01T10:00:00.000Z'), dir);
    await writeFile(join(dir, 'broken.json'), '{"schema_version": 1');
    await writeFile(join(dir, 'notes.txt'), 'not a run');
    const { runs, unreadable } = await listRuns(dir);
    expect(runs.map((run) => run.runId)).toEqual(['good']);
    expect(unreadable.map((entry) => entry.path)).toEqual([join(dir, 'broken.json')]);
    expect(unreadable[0]?.error).toBeInstanceOf(RunReportError);
    expect((await loadRun('latest', dir)).run_id).toBe('good');
  });

  it('names the newest few runs when an id is unknown', async () => {
    for (let day = 1; day <= 7; day += 1)
      await saveRun(runAt(`run-${day}`, `2026-11-0${day}T10:00:00.000Z`), dir);
    expect(await rejectedMessage(loadRun('run-9', dir))).toBe(
      `No run with id "run-9" in ${dir}. Newest runs: run-7, run-6, run-5, run-4, run-3. Pass a run id, a path to a .json report, or "latest".`,
    );
  });

  it('says there are no runs yet for an unknown id or "latest" in an empty store', async () => {
    expect(await rejectedMessage(loadRun('run-1', dir))).toBe(
      `No run with id "run-1" in ${dir}. No runs are saved there yet; run \`holodeck test\` first. Pass a run id, a path to a .json report, or "latest".`,
    );
    expect(await rejectedMessage(loadRun('latest', dir))).toBe(
      `No complete saved run in ${dir}, so there is no "latest" run. Run \`holodeck test\` to the end first, or pass a run id.`,
    );
  });

  it('takes "latest" to mean the latest complete run: interrupted and unfinished runs are skipped', async () => {
    await saveRun(runAt('complete', '2026-11-01T10:00:00.000Z'), dir);
    await saveRun({ ...runAt('interrupted', '2026-11-02T10:00:00.000Z'), interrupted: true }, dir);
    await saveRun({ ...runAt('going', '2026-11-03T10:00:00.000Z'), in_progress: { planned_cases: 3 } }, dir);
    expect((await listRuns(dir)).runs.map((run) => [run.runId, run.interrupted, run.inProgress])).toEqual([
      ['going', false, true],
      ['interrupted', true, false],
      ['complete', false, false],
    ]);
    expect((await loadRun('latest', dir)).run_id).toBe('complete');
    const onlyIncomplete = join(agentFolder, 'incomplete');
    await saveRun({ ...runAt('cut', '2026-11-02T10:00:00.000Z'), interrupted: true }, onlyIncomplete);
    expect(await rejectedMessage(loadRun('latest', onlyIncomplete))).toBe(
      `No complete saved run in ${onlyIncomplete} (1 interrupted or unfinished run(s) skipped), so there is no "latest" run. Run \`holodeck test\` to the end first, or pass a run id.`,
    );
  });

  it('names the file when a run file is invalid or missing', async () => {
    await mkdir(dir, { recursive: true });
    const path = join(dir, 'old.json');
    await writeFile(path, JSON.stringify({ ...mixedRun(), schema_version: 7 }));
    expect(await rejectedMessage(loadRun('old', dir))).toBe(
      `Invalid run report ${path}: found schema_version 7, but this holodeck reads schema_version 1 and 2 only; upgrade holodeck to read it.`,
    );
    const missing = join(agentFolder, 'elsewhere', 'run.json');
    expect(await rejectedMessage(loadRun(missing, dir))).toBe(
      `Cannot read run report ${missing}: the file does not exist.`,
    );
  });

  it('rejects a reference that is neither id, path nor "latest", and a run id that is not a file name', async () => {
    expect(await rejectedMessage(loadRun('..', dir))).toBe(
      '".." is not a run id, a path to a .json report, or "latest".',
    );
    expect(await rejectedMessage(saveRun(runAt('../escape', '2026-11-01T10:00:00.000Z'), dir))).toBe(
      'Cannot save run "../escape": a run id may hold only letters, digits, ".", "_" and "-" (it becomes a file name).',
    );
  });

  it('replaces a run saved twice under the same id with the complete new content', async () => {
    await saveRun(runAt('same', '2026-11-01T10:00:00.000Z'), dir);
    await saveRun(runAt('same', '2026-11-02T10:00:00.000Z'), dir);
    expect(JSON.parse(await readFile(join(dir, 'same.json'), 'utf8')).started_at).toBe(
      '2026-11-02T10:00:00.000Z',
    );
    expect(await readdir(dir)).toEqual(['same.json']);
  });
});

import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { errorMessage } from '../../support.js';
import type { RunReport, RunSummary } from './run-report.js';
import { RunReportError } from './run-report-error.js';
import { parseRunReport } from './run-report-schema.js';
import { writeJsonReport } from './write-json-report.js';

/** A run id is a file name: letters, digits, `.`, `_`, `-`, not starting with a dot. */
const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const NEWEST_SHOWN = 5;

/** One saved run, as listRuns finds it. */
export interface StoredRun {
  runId: string;
  startedAt: string;
  path: string;
  agentName: string;
  summary: RunSummary;
  /** The record of a run still going (or one that died before it finished). */
  inProgress: boolean;
  /** Stopped before every case had run (Ctrl+C, SIGTERM, --max-cost). */
  interrupted: boolean;
}

/** A file in the runs directory that is not a readable run report. */
export interface UnreadableRun {
  path: string;
  error: RunReportError;
}

/** What a runs directory holds: valid runs newest first, and the files that could not be read. */
export interface RunListing {
  runs: StoredRun[];
  unreadable: UnreadableRun[];
}

/** Where `holodeck test` keeps its runs: `<agent folder>/.holodeck/runs`. */
export function runsDirectory(agentFolder: string): string {
  return join(agentFolder, '.holodeck', 'runs');
}

/**
 * Saves a run as `<dir>/<run_id>.json`, atomically: written to a temporary file in the same
 * directory, flushed, then renamed, so a reader never sees half a report. Returns the path.
 */
export async function saveRun(report: RunReport, dir: string): Promise<string> {
  if (!RUN_ID.test(report.run_id)) {
    throw new RunReportError(
      dir,
      `Cannot save run ${JSON.stringify(report.run_id)}: a run id may hold only letters, digits, ".", "_" and "-" (it becomes a file name).`,
    );
  }
  await mkdir(dir, { recursive: true });
  const target = join(dir, `${report.run_id}.json`);
  const temporary = join(dir, `.${report.run_id}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const text = writeJsonReport(report);
  try {
    const handle = await open(temporary, 'wx');
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return target;
}

/** Every run saved in `dir`, newest first (by started_at); a missing directory holds none. */
export async function listRuns(dir: string): Promise<RunListing> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if (isMissing(error)) return { runs: [], unreadable: [] };
    throw error;
  }
  const listing: RunListing = { runs: [], unreadable: [] };
  for (const name of names.filter((entry) => entry.endsWith('.json') && !entry.startsWith('.')).sort()) {
    const path = join(dir, name);
    try {
      const report = await readRunFile(path);
      listing.runs.push({
        runId: report.run_id,
        startedAt: report.started_at,
        path,
        agentName: report.agent.name,
        summary: report.summary,
        inProgress: report.in_progress !== undefined,
        interrupted: report.interrupted === true,
      });
    } catch (error) {
      if (!(error instanceof RunReportError)) throw error;
      listing.unreadable.push({ path, error });
    }
  }
  listing.runs.sort(
    (a, b) => Date.parse(b.startedAt) - Date.parse(a.startedAt) || b.runId.localeCompare(a.runId),
  );
  return listing;
}

/**
 * Loads a run by reference: `latest` (the newest complete run in `dir` by started_at: neither in
 * progress nor interrupted), a path to a JSON
 * report (anything ending in `.json` or holding a path separator, relative to the working
 * directory), or a run id saved in `dir`.
 */
export async function loadRun(reference: string, dir: string): Promise<RunReport> {
  if (reference === 'latest') {
    const { runs, unreadable } = await listRuns(dir);
    const newest = runs.find((run) => !run.inProgress && !run.interrupted);
    if (newest) return readRunFile(newest.path);
    const incomplete = runs.length;
    const notes = [
      ...(incomplete > 0 ? [`${incomplete} interrupted or unfinished run(s) skipped`] : []),
      ...(unreadable.length > 0 ? [`${unreadable.length} unreadable file(s) skipped`] : []),
    ];
    const skipped = notes.length ? ` (${notes.join(', ')})` : '';
    throw new RunReportError(
      dir,
      `No complete saved run in ${dir}${skipped}, so there is no "latest" run. Run \`holodeck test\` to the end first, or pass a run id.`,
    );
  }
  if (reference.endsWith('.json') || /[\\/]/.test(reference)) return readRunFile(resolve(reference));
  if (!RUN_ID.test(reference)) {
    throw new RunReportError(
      dir,
      `${JSON.stringify(reference)} is not a run id, a path to a .json report, or "latest".`,
    );
  }
  try {
    return await readRunFile(join(dir, `${reference}.json`), { missingIsUnknownId: true });
  } catch (error) {
    if (!(error instanceof UnknownRunId)) throw error;
    const { runs } = await listRuns(dir);
    const newest = runs.slice(0, NEWEST_SHOWN).map((run) => run.runId);
    const known =
      newest.length > 0
        ? `Newest runs: ${newest.join(', ')}.`
        : `No runs are saved there yet; run \`holodeck test\` first.`;
    throw new RunReportError(
      dir,
      `No run with id "${reference}" in ${dir}. ${known} Pass a run id, a path to a .json report, or "latest".`,
    );
  }
}

class UnknownRunId extends Error {}

async function readRunFile(path: string, options: { missingIsUnknownId?: boolean } = {}): Promise<RunReport> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (options.missingIsUnknownId && isMissing(error)) throw new UnknownRunId();
    const reason = isMissing(error) ? 'the file does not exist' : errorMessage(error);
    throw new RunReportError(path, `Cannot read run report ${path}: ${reason}.`, { cause: error });
  }
  return parseRunReport(text, path);
}

function isMissing(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
}

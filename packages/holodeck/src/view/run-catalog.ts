import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseRunReport, type RunReport, RunReportError } from '../runner/report/index.js';
import { toRunHeader } from './build-view-data.js';
import type { ViewRunHeader, ViewUnreadable } from './view-data.js';

/** A run id is a file name in the runs folder: no separators, no leading dot (see run-store.ts). */
const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** Full reports kept in memory: a run of 1,000 cases × 3 attempts is tens of MB parsed. */
const FULL_REPORTS_KEPT = 3;

/** True for a string that can name a run file in the runs folder (and nothing outside it). */
export function isRunId(value: string): boolean {
  return RUN_ID.test(value) && !value.includes('..');
}

/** What the catalog keeps of each saved run: its header, and what tells a change. */
export interface CatalogEntry {
  runId: string;
  file: string;
  agentFile: string;
  header: ViewRunHeader;
  /** Every case name of the run's suite (null in reports of format 1): the runs list names cases added and removed. */
  suiteCases: string[] | null;
  /** `mtime:size` of the file when it was read. */
  stamp: string;
}

/**
 * The saved runs of one runs folder, read from disk and re-read when a file's mtime or size
 * changes (a run in progress is rewritten as its cases finish). Headers of every run are kept;
 * full reports only for the few runs looked at last.
 */
export class RunCatalog {
  private entries = new Map<string, CatalogEntry>();
  private unreadable: ViewUnreadable[] = [];
  private readonly full = new Map<string, { stamp: string; report: RunReport }>();

  constructor(readonly dir: string) {}

  /** Re-reads what changed on disk; returns the ids of runs added, changed or removed. */
  async refresh(): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if (error instanceof Error && 'code' in error && error.code === 'ENOENT') names = [];
      else throw error;
    }
    const files = names.filter((name) => name.endsWith('.json') && !name.startsWith('.')).sort();
    const changed: string[] = [];
    const next = new Map<string, CatalogEntry>();
    const unreadable: ViewUnreadable[] = [];
    for (const name of files) {
      const file = path.join(this.dir, name);
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) continue;
      const stamp = `${info.mtimeMs}:${info.size}`;
      const runId = name.slice(0, -'.json'.length);
      const known = this.entries.get(runId);
      if (known && known.stamp === stamp) {
        next.set(runId, known);
        continue;
      }
      try {
        const report = await this.read(runId, file, stamp);
        next.set(runId, {
          runId,
          file,
          agentFile: report.agent.file,
          header: toRunHeader(report),
          suiteCases: report.suite_cases,
          stamp,
        });
        changed.push(runId);
      } catch (error) {
        if (!(error instanceof RunReportError)) throw error;
        unreadable.push({ file: name, message: error.message });
      }
    }
    for (const runId of this.entries.keys()) if (!next.has(runId)) changed.push(runId);
    this.entries = next;
    this.unreadable = unreadable;
    return changed;
  }

  /** Every readable run, newest first (by started_at, then id). */
  list(): CatalogEntry[] {
    return [...this.entries.values()].sort(
      (a, b) =>
        Date.parse(b.header.started_at) - Date.parse(a.header.started_at) || b.runId.localeCompare(a.runId),
    );
  }

  unreadableFiles(): ViewUnreadable[] {
    return this.unreadable;
  }

  /** The full report of a run, or undefined for an id that names no readable run here. */
  async report(runId: string): Promise<RunReport | undefined> {
    if (!isRunId(runId)) return undefined;
    const entry = this.entries.get(runId);
    if (!entry) return undefined;
    const kept = this.full.get(runId);
    if (kept && kept.stamp === entry.stamp) return kept.report;
    try {
      return await this.read(runId, entry.file, entry.stamp);
    } catch (error) {
      if (error instanceof RunReportError) return undefined;
      throw error;
    }
  }

  private async read(runId: string, file: string, stamp: string): Promise<RunReport> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw new RunReportError(
        file,
        `Cannot read run report ${file}: ${error instanceof Error ? error.message : String(error)}.`,
      );
    }
    const report = parseRunReport(text, file);
    this.full.delete(runId);
    this.full.set(runId, { stamp, report });
    while (this.full.size > FULL_REPORTS_KEPT) {
      const oldest = this.full.keys().next().value;
      if (oldest === undefined) break;
      this.full.delete(oldest);
    }
    return report;
  }
}

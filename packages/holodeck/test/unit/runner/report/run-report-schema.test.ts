import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { RunReport } from '../../../../src/runner/report/run-report.js';
import { RunReportError } from '../../../../src/runner/report/run-report-error.js';
import { parseRunReport, type RunReportSchema } from '../../../../src/runner/report/run-report-schema.js';
import { writeJsonReport } from '../../../../src/runner/report/write-json-report.js';
import { mixedRun } from './report-builder.js';
import { REPORT_FIXTURES, thrownMessage } from './report-paths.js';

/** A type without the `[key: string]: unknown` signatures of loose zod objects, recursively. */
type KnownKeys<T> = T extends readonly (infer Item)[]
  ? KnownKeys<Item>[]
  : T extends object
    ? { [Key in keyof T as string extends Key ? never : Key]: KnownKeys<T[Key]> }
    : T;

const SOURCE = '/agents/support/.holodeck/runs/r1.json';

function withChange(change: (report: Record<string, unknown>) => void): string {
  const data: Record<string, unknown> = JSON.parse(writeJsonReport(mixedRun()));
  change(data);
  return JSON.stringify(data);
}

describe('JSON report round trip', () => {
  it('writes a report that parses back deep-equal', () => {
    const report = mixedRun();
    expect(parseRunReport(writeJsonReport(report), SOURCE)).toEqual(report);
  });

  it('writes two-space indented JSON with keys in schema order, whatever the input order', () => {
    const { cases, summary, ...rest } = mixedRun();
    const shuffled: RunReport = { cases, summary, ...rest };
    const text = writeJsonReport(shuffled);
    expect(text).toBe(writeJsonReport(mixedRun()));
    expect(text.split('\n').slice(0, 3)).toEqual([
      '{',
      '  "schema_version": 2,',
      '  "run_id": "2026-11-30T01-02-03Z-ab12cd",',
    ]);
    expect(text.endsWith('}\n')).toBe(true);
  });

  it('keeps keys it does not know (written by a newer compatible holodeck)', () => {
    const text = withChange((data) => {
      data.git_commit = 'abc123';
    });
    const report = parseRunReport(text, SOURCE);
    expect(JSON.parse(writeJsonReport(report)).git_commit).toBe('abc123');
  });

  it('refuses to write a report that would not load back, as a bug', () => {
    const report = mixedRun();
    report.summary.total = -1;
    expect(() => writeJsonReport(report)).toThrow(
      'Internal error (this is a bug): the run report does not match its schema: summary.total: expected at least 0, got -1',
    );
  });

  it('loads every shipped fixture of every schema version', () => {
    const versions = readdirSync(REPORT_FIXTURES).filter((name) => /^v\d+$/.test(name));
    expect(versions).toEqual(expect.arrayContaining(['v1', 'v2']));
    const files = versions.flatMap((version) =>
      readdirSync(join(REPORT_FIXTURES, version)).map((name) => join(REPORT_FIXTURES, version, name)),
    );
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const file of files) {
      const report = parseRunReport(readFileSync(file, 'utf8'), file);
      expect(report.cases.length, file).toBeGreaterThan(0);
    }
  });

  it('matches the RunReport type in both directions', () => {
    expectTypeOf<KnownKeys<z.output<typeof RunReportSchema>>>().toEqualTypeOf<KnownKeys<RunReport>>();
    expectTypeOf<KnownKeys<z.input<typeof RunReportSchema>>>().toEqualTypeOf<KnownKeys<RunReport>>();
  });
});

describe('parseRunReport errors', () => {
  it('says the file is empty', () => {
    const message = thrownMessage(() => parseRunReport('  \n', SOURCE));
    expect(message).toBe(`Invalid run report ${SOURCE}: the file is empty.`);
  });

  it('says the file is not JSON, with the parser detail', () => {
    let detail = '';
    try {
      JSON.parse('<testsuites/>');
    } catch (error) {
      detail = error instanceof Error ? error.message : '';
    }
    expect(() => parseRunReport('<testsuites/>', SOURCE)).toThrow(RunReportError);
    expect(thrownMessage(() => parseRunReport('<testsuites/>', SOURCE))).toBe(
      `Invalid run report ${SOURCE}: not valid JSON (${detail}).`,
    );
  });

  it('says a non-object is not a report', () => {
    expect(thrownMessage(() => parseRunReport('[1, 2]', SOURCE))).toBe(
      `Invalid run report ${SOURCE}: expected a JSON object, got an array.`,
    );
  });

  it('says which schema_version it found and which it supports', () => {
    const newer = withChange((data) => {
      data.schema_version = 3;
    });
    expect(thrownMessage(() => parseRunReport(newer, SOURCE))).toBe(
      `Invalid run report ${SOURCE}: found schema_version 3, but this holodeck reads schema_version 1 and 2 only; upgrade holodeck to read it.`,
    );
    const text = withChange((data) => {
      data.schema_version = '2';
    });
    expect(thrownMessage(() => parseRunReport(text, SOURCE))).toBe(
      `Invalid run report ${SOURCE}: found schema_version "2", but this holodeck reads schema_version 1 and 2 only.`,
    );
  });

  it('reads format 1 as version 2, with what version 1 did not record set to null', () => {
    const file = join(REPORT_FIXTURES, 'v1', 'mixed-run.json');
    const report = parseRunReport(readFileSync(file, 'utf8'), file);
    expect(report.schema_version).toBe(2);
    expect(report.environment).toBeNull();
    expect(report.suite_cases).toBeNull();
    expect(report.agent).toMatchObject({ config: null, config_hash: null, instructions_hash: null });
  });

  it('says a file without schema_version is not a run report', () => {
    expect(thrownMessage(() => parseRunReport('{"name": "agent"}', SOURCE))).toBe(
      `Invalid run report ${SOURCE}: it has no schema_version, so it is not a holodeck run report (write one with \`holodeck test --format json\`).`,
    );
  });

  it('lists every missing or mistyped field with its path', () => {
    const text = withChange((data) => {
      const summary = data.summary as Record<string, unknown>;
      delete summary.total;
      const cases = data.cases as Record<string, unknown>[];
      (cases[1] as Record<string, unknown>).passed = 'no';
      data.started_at = 'yesterday';
      (data.options as Record<string, unknown>).isolation = 'thread';
    });
    expect(thrownMessage(() => parseRunReport(text, SOURCE))).toBe(
      [
        `Invalid run report ${SOURCE}: 4 problems:`,
        '  - started_at: expected an ISO 8601 date-time such as "2026-01-31T12:00:00.000Z", got "yesterday"',
        '  - options.isolation: expected one of "process", "session", got "thread"',
        '  - summary.total: missing (expected a number)',
        '  - cases[1].passed: expected a boolean, got "no"',
      ].join('\n'),
    );
  });

  it('rejects a metric score outside [0, 1]', () => {
    const text = withChange((data) => {
      const cases = data.cases as { metrics: { score: number }[] }[];
      const metric = cases[0]?.metrics[0];
      if (metric) metric.score = 1.5;
    });
    expect(thrownMessage(() => parseRunReport(text, SOURCE))).toBe(
      `Invalid run report ${SOURCE}: 1 problem:\n  - cases[0].metrics[0].score: expected at most 1, got 1.5`,
    );
  });
});

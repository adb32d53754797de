import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../../errors.js';
import type { RunComparison } from '../../runner/report/compare-runs.js';
import type { ReportFormat } from '../../runner/report/infer-report-format.js';
import type { RunReport } from '../../runner/report/run-report.js';

/** One `-o` of `holodeck test`: a file, or `-` for stdout, and the format it is written in. */
export interface ReportOutput {
  /** The absolute path, or `-` for stdout. */
  target: string;
  /** What the user typed, for messages. */
  given: string;
  format: ReportFormat;
}

interface ReportModule {
  REPORT_FORMATS: readonly ReportFormat[];
  inferReportFormat(file: string): ReportFormat;
  writeReport(report: RunReport, format: Exclude<ReportFormat, 'html'>, comparison?: RunComparison): string;
}

/**
 * The report outputs of `-o a.json -o b.xml -o -`: each file's format from its extension, or
 * `--format` (which then needs exactly one output); `-` is stdout and needs `--format` unless it
 * is JSON (the default for stdout). Only one output may be stdout.
 */
export function resolveReportOutputs(
  outputs: readonly string[],
  format: string | undefined,
  report: ReportModule,
): ReportOutput[] {
  const chosen = format ? report.REPORT_FORMATS.find((candidate) => candidate === format) : undefined;
  if (format && !chosen)
    throw new UsageError(
      '--format',
      `unknown report format "${format}"`,
      'use json, junit, markdown or html',
    );
  if (format && !outputs.length)
    throw new UsageError('--format', 'needs --output <file> to write the report to');
  if (format && outputs.length > 1)
    throw new UsageError(
      '--format',
      'applies to one --output; with several, each file’s extension says its format',
      'use .json, .xml, .md or .html names, e.g. -o report.json -o report.xml',
    );
  if (outputs.filter((output) => output === '-').length > 1)
    throw new UsageError('--output', 'only one report can go to stdout (-)');
  return outputs.map((given) => ({
    given,
    target: given === '-' ? '-' : path.resolve(given),
    format: chosen ?? (given === '-' ? 'json' : report.inferReportFormat(given)),
  }));
}

/** Paths relative to the working directory (a CI runner's folders stay out of a PR comment). */
function withRelativeAgentFile(result: RunReport): RunReport {
  const relative = path.relative(process.cwd(), result.agent.file);
  return {
    ...result,
    agent: { ...result.agent, file: relative && !relative.startsWith('..') ? relative : result.agent.file },
  };
}

/** Writes every report output; the Markdown and JUnit reports name agent.yaml relative to the cwd. */
export async function writeReportOutputs(
  outputs: readonly ReportOutput[],
  result: RunReport,
  render: {
    report: ReportModule;
    html(): Promise<string>;
    comparison?: RunComparison;
    onWritten(output: ReportOutput): void;
  },
): Promise<void> {
  for (const output of outputs) {
    const text =
      output.format === 'html'
        ? await render.html()
        : render.report.writeReport(
            output.format === 'json' ? result : withRelativeAgentFile(result),
            output.format,
            render.comparison,
          );
    if (output.target === '-') process.stdout.write(text);
    else {
      await writeFile(output.target, text);
      render.onWritten(output);
    }
  }
}

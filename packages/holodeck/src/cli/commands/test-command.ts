import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { ConfigError } from '../../errors.js';
import { ExitCode, type ExitCodeValue } from '../exit-codes.js';
import type { Style } from '../terminal-style.js';

export interface TestCommandOptions {
  concurrency: string;
  repeat?: string;
  filter?: string;
  tag: string[];
  shard?: string;
  timeout?: string;
  isolation: string;
  allowSideEffects: boolean;
  output?: string;
  format?: string;
  baseline?: string;
  save: boolean;
}

function positiveInteger(flag: string, value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) {
    throw new ConfigError([
      { file: flag, path: '', message: `${flag} needs a whole number ≥ 1, got "${value}"` },
    ]);
  }
  return parsed;
}

/** `holodeck test <file>`: run the suite, report, save the run, compare with a baseline. */
export async function testCommand(
  file: string,
  options: TestCommandOptions,
  style: Style,
): Promise<ExitCodeValue> {
  // Loaded on use: the runner pulls in the Claude SDK, which validate/schema do not need.
  const [{ loadAgent }, { runTestSuite }, { parseShard }, report] = await Promise.all([
    import('../../load-agent.js'),
    import('../../runner/run-test-suite.js'),
    import('../../runner/select-cases.js'),
    import('../../runner/report/index.js'),
  ]);
  if (options.isolation !== 'process' && options.isolation !== 'session') {
    throw new ConfigError([
      {
        file: '--isolation',
        path: '',
        message: `unknown isolation "${options.isolation}"`,
        hint: 'use process or session',
      },
    ]);
  }
  const format = options.output
    ? options.format
      ? report.REPORT_FORMATS.find((candidate) => candidate === options.format)
      : report.inferReportFormat(options.output)
    : undefined;
  if (options.output && !format) {
    throw new ConfigError([
      {
        file: '--format',
        path: '',
        message: `unknown report format "${options.format}"`,
        hint: 'use json, junit or markdown',
      },
    ]);
  }
  const agent = await loadAgent(file);
  const runsDir = report.runsDirectory(agent.directory);
  const baseline = options.baseline ? await report.loadRun(options.baseline, runsDir) : undefined;

  const terminal = report.terminalCapabilities(process.stderr);
  const progress = report.createProgressReporter({ stream: process.stderr, ...terminal });
  const interrupt = new AbortController();
  const stop = () => interrupt.abort(new Error('interrupted'));
  process.once('SIGINT', stop);
  let result: Awaited<ReturnType<typeof runTestSuite>>;
  try {
    result = await runTestSuite(agent, {
      concurrency: positiveInteger('--concurrency', options.concurrency),
      ...(options.repeat ? { repeat: positiveInteger('--repeat', options.repeat) } : {}),
      ...(options.filter ? { filter: options.filter } : {}),
      ...(options.tag.length ? { tags: options.tag } : {}),
      ...(options.shard ? { shard: parseShard(options.shard) } : {}),
      ...(options.timeout ? { timeoutSeconds: positiveInteger('--timeout', options.timeout) } : {}),
      isolation: options.isolation,
      allowSideEffects: options.allowSideEffects,
      signal: interrupt.signal,
      onNotice: (message) => process.stderr.write(`${style.yellow('note')} ${message}\n`),
      onStart: (total) => progress.start(total),
      onCaseStarted: (name) => progress.caseStarted(name),
      onCaseFinished: (caseReport) => progress.caseFinished(caseReport),
    });
  } finally {
    process.off('SIGINT', stop);
  }
  progress.finish(result.summary);
  if (interrupt.signal.aborted) return ExitCode.aborted;

  const comparison = baseline ? report.compareRuns(result, baseline) : undefined;
  process.stdout.write(`${report.renderSummary(result, { color: terminal.color })}\n`);
  if (comparison) process.stdout.write(`${report.renderComparison(comparison, { color: terminal.color })}\n`);
  if (options.save) {
    const saved = await report.saveRun(result, runsDir);
    process.stderr.write(
      `${style.dim(`run saved: ${path.relative(process.cwd(), saved) || saved} (id ${result.run_id})`)}\n`,
    );
  }
  if (options.output && format) {
    await writeFile(options.output, report.writeReport(result, format, comparison));
    process.stderr.write(`${style.dim(`${format} report written to ${options.output}`)}\n`);
  }
  return result.summary.passed === result.summary.total ? ExitCode.ok : ExitCode.testsFailed;
}

export function registerTestCommand(
  program: Command,
  run: (code: Promise<ExitCodeValue>) => void,
  style: Style,
) {
  program
    .command('test')
    .description("run the agent's test cases, grade them with their metrics, and report")
    .argument('<file>', 'path to agent.yaml')
    .option('-c, --concurrency <n>', 'agent runs at a time', '4')
    .option('--repeat <n>', 'attempts per case (overrides each case repeat); reports pass@k and pass^k')
    .option('--filter <pattern>', 'only cases whose name contains the pattern (* is a wildcard)')
    .option(
      '--tag <tag>',
      'only cases with this tag (repeatable)',
      (value: string, all: string[]) => [...all, value],
      [],
    )
    .option('--shard <i/n>', 'run the i-th of n slices of the suite (for CI matrices)')
    .option('--timeout <seconds>', 'time limit per attempt when a case sets none (default 180)')
    .option(
      '--isolation <level>',
      'process: a fresh CLI process per case; session: reuse warm processes with /clear',
      'process',
    )
    .option(
      '--allow-side-effects',
      'keep Bash and file writes/edits enabled; each case gets its own working-directory copy',
      false,
    )
    .option('-o, --output <file>', 'write a report (.json, .xml for JUnit, .md for Markdown)')
    .option('--format <format>', 'report format when the extension does not say: json, junit or markdown')
    .option('--baseline <run>', 'compare with an earlier run: its id, a report file, or "latest"')
    .option('--no-save', 'do not save this run under .holodeck/runs/')
    .action((file: string, options: TestCommandOptions) => run(testCommand(file, options, style)));
}

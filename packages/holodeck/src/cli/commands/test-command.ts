import { access, constants, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import type { LoadedAgent } from '../../config/index.js';
import { UsageError } from '../../errors.js';
import type { RunReport } from '../../runner/report/run-report.js';
import { errorMessage } from '../../support.js';
import type { CommandContext } from '../command-context.js';
import { ExitCode, type ExitCodeValue } from '../exit-codes.js';
import type { Style } from '../terminal-style.js';
import {
  addRecordingOptions,
  describeRecording,
  parseRecordingFlags,
  type RecordingFlags,
} from './recording-options.js';
import { resolveReportOutputs, writeReportOutputs } from './report-outputs.js';
import { registerTestAddCommand } from './test-add-command.js';
import { registerTestApproveCommand } from './test-approve-command.js';
import { registerTestCompareCommand } from './test-compare-command.js';
import { registerTestMergeCommand } from './test-merge-command.js';
import { registerTestOptimizeCommand } from './test-optimize-command.js';
import { registerTestRegradeCommand } from './test-regrade-command.js';
import { registerTestViewCommand } from './test-view-command.js';
import {
  checkGate,
  continuationFlag,
  continuedSelection,
  describeBudgetStop,
  loadBaseline,
  loadContinuation,
  parseMaxCost,
  parseRepeat,
  registerVerdictOptions,
  type VerdictCommandOptions,
  writeCiSurfaces,
} from './verdict-options.js';

export interface TestCommandOptions extends RecordingFlags, VerdictCommandOptions {
  forceIngest?: boolean;
  concurrency: string;
  repeat?: string;
  filter?: string;
  tag: string[];
  case: string[];
  limit?: string;
  sample?: string;
  sampleSeed?: string;
  shard?: string;
  timeout?: string;
  isolation: string;
  maxProcesses?: string;
  allowSideEffects: boolean;
  keepWorkdirs: boolean;
  copyIgnored: boolean;
  output: string[];
  format?: string;
  baseline?: string;
  save: boolean;
  /** `--matrix`: a matrix file or inline YAML (see runner/matrix). */
  matrix?: string;
}

function positiveInteger(flag: string, value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1)
    throw new UsageError(flag, `needs a whole number ≥ 1, got "${value}"`);
  return parsed;
}

/** `--sample-seed`: a whole number ≥ 0, and only with --sample (alone it would change nothing). */
function seed(value: string, sample: string | undefined): number {
  if (sample === undefined)
    throw new UsageError(
      '--sample-seed',
      'has no effect without --sample',
      'add --sample <k>, or leave --sample-seed out',
    );
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0)
    throw new UsageError('--sample-seed', `needs a whole number ≥ 0, got "${value}"`);
  return parsed;
}

/**
 * Makes sure `--output` can be written before anything runs: its folders are created, and a
 * folder (or a file that cannot be replaced) there is a usage error naming the flag.
 */
async function prepareOutput(output: string): Promise<string> {
  const target = path.resolve(output);
  const folder = path.dirname(target);
  try {
    await mkdir(folder, { recursive: true });
    await access(folder, constants.W_OK);
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : String(error);
    if (code === 'EEXIST' || code === 'ENOTDIR')
      throw new UsageError('--output', `cannot create the folder ${folder}: a file is in the way`);
    throw new UsageError('--output', `cannot create or write the folder ${folder} (${code})`);
  }
  const existing = await stat(target).catch(() => undefined);
  if (existing?.isDirectory())
    throw new UsageError(
      '--output',
      `${target} is a folder`,
      'give the path of a report file, e.g. report.xml',
    );
  if (existing) {
    await access(target, constants.W_OK).catch(() => {
      throw new UsageError('--output', `${target} exists and cannot be written`);
    });
  }
  return target;
}

/**
 * `holodeck test <file>`: run the suite, report, save the run, compare with a baseline. When
 * `signal` aborts (Ctrl+C, SIGTERM) the running attempts are stopped, and the report of what ran
 * is still printed, written and saved, marked interrupted; the exit code is then 130.
 */
export async function testCommand(
  file: string,
  options: TestCommandOptions,
  style: Style,
  signal: AbortSignal,
): Promise<ExitCodeValue> {
  // Loaded on use: the runner pulls in the Claude SDK, which validate/schema do not need.
  const [{ loadAgent }, { runTestSuite }, { parseShard }, report] = await Promise.all([
    import('../../load-agent.js'),
    import('../../runner/run-test-suite.js'),
    import('../../runner/select-cases.js'),
    import('../../runner/report/index.js'),
  ]);
  // Every flag is checked before anything is loaded or run.
  if (options.isolation !== 'process' && options.isolation !== 'session')
    throw new UsageError('--isolation', `unknown isolation "${options.isolation}"`, 'use process or session');
  const outputs = resolveReportOutputs(options.output, options.format, report);
  const continuing = continuationFlag(options);
  const selection = {
    concurrency: positiveInteger('--concurrency', options.concurrency),
    ...(options.repeat ? { repeat: parseRepeat(options.repeat) } : {}),
    ...(options.maxCost !== undefined ? { maxCostUsd: parseMaxCost(options.maxCost) } : {}),
    ...(options.filter ? { filter: options.filter } : {}),
    ...(options.tag.length ? { tags: options.tag } : {}),
    ...(options.shard ? { shard: parseShard(options.shard) } : {}),
    ...(options.case.length ? { caseNames: options.case } : {}),
    ...(options.limit !== undefined ? { limit: positiveInteger('--limit', options.limit) } : {}),
    ...(options.sample !== undefined ? { sample: positiveInteger('--sample', options.sample) } : {}),
    ...(options.sampleSeed !== undefined ? { sampleSeed: seed(options.sampleSeed, options.sample) } : {}),
    ...(options.timeout ? { timeoutSeconds: positiveInteger('--timeout', options.timeout) } : {}),
    ...(options.maxProcesses !== undefined
      ? { maxProcesses: positiveInteger('--max-processes', options.maxProcesses) }
      : {}),
  };
  const recording = parseRecordingFlags(options);
  for (const output of outputs) if (output.target !== '-') await prepareOutput(output.given);
  // With a report on stdout, the summary goes to stderr so stdout holds only the report.
  const summaryStream = outputs.some((output) => output.target === '-') ? process.stderr : process.stdout;
  const agent = await loadAgent(file);
  const notice = (message: string) => process.stderr.write(`${style.yellow('note')} ${message}\n`);
  const matrix = await import('./matrix-run.js');
  const variants = await matrix.prepareMatrixRun(agent, options, {
    allowSideEffects: options.allowSideEffects,
    onNotice: notice,
  });
  const judges = await warnAboutCalibrations(agent, style);
  const { recorder } = await recording.open(agent, (message) =>
    process.stderr.write(`${style.yellow('note')} ${message}\n`),
  );
  if (options.forceIngest)
    await (await import('./ingest-command.js')).forceIngestBeforeRun(file, style, signal);
  const runsDir = report.runsDirectory(agent.directory);
  const continuation = continuing ? await loadContinuation(continuing, runsDir) : undefined;
  const baseline = options.baseline
    ? await loadBaseline(options.baseline, agent.directory, runsDir)
    : undefined;

  const terminal = report.terminalCapabilities(process.stderr);
  const progress = report.createProgressReporter({ stream: process.stderr, ...terminal });
  let suiteCases: readonly string[] = [];
  // The record is saved as cases finish, so `holodeck test view` can follow the run.
  const saver = options.save
    ? new report.LiveRunSaver(runsDir, {
        onError: (error) =>
          process.stderr.write(
            `${style.yellow('note')} could not save the run in progress (${errorMessage(error)}); it is saved at the end\n`,
          ),
      })
    : undefined;
  const run = variants
    ? async (...args: Parameters<typeof runTestSuite>) =>
        (await import('../../runner/matrix/run-matrix.js')).runMatrix(args[0], variants, args[1])
    : runTestSuite;
  const result = await run(agent, {
    ...selection,
    ...(continuation ? { ...continuedSelection(continuation.run), continueFrom: continuation } : {}),
    isolation: options.isolation,
    allowSideEffects: options.allowSideEffects,
    keepWorkdirs: options.keepWorkdirs,
    copyIgnored: options.copyIgnored,
    signal,
    ...(recorder ? { recorder } : {}),
    onNotice: (message) => process.stderr.write(`${style.yellow('note')} ${message}\n`),
    onStart: (total, names) => {
      suiteCases = names;
      progress.start(total);
    },
    onCaseStarted: (name) => progress.caseStarted(name),
    onCaseFinished: (caseReport) => progress.caseFinished(caseReport),
    ...(saver ? { onProgress: (partial: RunReport) => saver.update(partial) } : {}),
  }).finally(() => progress.finish());

  const comparison = baseline ? report.compareRuns(result, baseline, { suiteCases }) : undefined;
  summaryStream.write(
    variants
      ? `${(await import('../../runner/report/render-matrix-summary.js')).renderMatrixSummary(result, { color: terminal.color })}\n${await matrix.renderVariantPair(result, terminal.color)}`
      : `${report.renderSummary(result, { color: terminal.color })}\n`,
  );
  const recordingNote = describeRecording(recorder);
  if (recordingNote) process.stderr.write(`${style.dim(recordingNote)}\n`);
  if (comparison) summaryStream.write(`${report.renderComparison(comparison, { color: terminal.color })}\n`);
  const gateConfig = agent.config.evaluations?.gate ?? (options.gate ? {} : undefined);
  const gate =
    gateConfig && !variants
      ? await checkGate(result, gateConfig, agent.directory, suiteCases, terminal.color, judges)
      : undefined;
  const matrixGate =
    gateConfig && variants
      ? await matrix.checkMatrixGate(result, gateConfig, agent.directory, suiteCases, terminal.color, judges)
      : undefined;
  if (gate ?? matrixGate) summaryStream.write(`${(gate ?? matrixGate)?.text}\n`);
  const surfaced = matrix.withVariantNames(result);
  await writeCiSurfaces(surfaced, comparison, gate?.gate, options.ciSummary, process.env, (message) =>
    process.stderr.write(`${style.yellow('warning')} ${message}\n`),
  );
  if (saver) {
    const saved = await saver.finish(result);
    const marked = result.interrupted ? ', interrupted' : '';
    process.stderr.write(
      `${style.dim(`run saved: ${path.relative(process.cwd(), saved) || saved} (id ${result.run_id}${marked})`)}\n`,
    );
  }
  await writeReportOutputs(outputs, result, {
    report,
    html: async () =>
      (await import('../../view/write-html-report.js')).writeHtmlReport(result, {
        ...(baseline && comparison ? { baseline: { report: baseline, comparison } } : {}),
      }),
    ...(comparison ? { comparison } : {}),
    onWritten: (output) =>
      process.stderr.write(`${style.dim(`${output.format} report written to ${output.given}`)}\n`),
  });
  if (result.budget?.reached) {
    process.stderr.write(
      `${style.red('error')} ${describeBudgetStop(result.budget, result.summary.interrupted ?? 0)}\n`,
    );
    return ExitCode.testsFailed;
  }
  if (result.interrupted) return ExitCode.interrupted;
  if ((gate && !gate.held) || (matrixGate && !matrixGate.held)) return ExitCode.testsFailed;
  return result.summary.passed === result.summary.total ? ExitCode.ok : ExitCode.testsFailed;
}

/**
 * The judge metrics that set min_kappa and whose last calibration is missing, stale or below it:
 * one warning each on stderr (the gate, when checked, breaks on them). Returns every state.
 */
async function warnAboutCalibrations(agent: LoadedAgent, style: Style) {
  const { calibrationStatuses } = await import('../../runner/calibration/calibration-status.js');
  const statuses = await calibrationStatuses(agent);
  for (const status of statuses)
    if (status.state !== 'ok') process.stderr.write(`${style.yellow('warning')} ${status.message}\n`);
  return statuses;
}

export function registerTestCommand(program: Command, context: CommandContext) {
  const test = program
    .command('test')
    .description("run the agent's test cases, grade them with their metrics, and report")
    .argument('<file>', 'path to agent.yaml')
    .option('-c, --concurrency <n>', 'agent runs at a time', '4')
    .option(
      '--repeat <n|auto>',
      'attempts per case (overrides each case repeat); auto: at least 3, more while the pass-rate interval straddles min_pass_rate, at most 10',
    )
    .option('--filter <pattern>', 'only cases whose name contains the pattern (* is a wildcard)')
    .option(
      '--tag <tag>',
      'only cases with this tag (repeatable)',
      (value: string, all: string[]) => [...all, value],
      [],
    )
    .option(
      '--case <name>',
      'only the case with this exact name (repeatable)',
      (value: string, all: string[]) => [...all, value],
      [],
    )
    .option('--shard <i/n>', 'run the i-th of n slices of the suite (for CI matrices)')
    .option('--sample <k>', 'k of the selected cases at random (the same ones for the same --sample-seed)')
    .option('--sample-seed <n>', 'seed of --sample (default 0)')
    .option('--limit <n>', 'only the first n selected cases, in the order they are written')
    .option('--timeout <seconds>', 'time limit per attempt when a case sets none (default 180)')
    .option(
      '--isolation <level>',
      'process: a fresh agent session per case; session: sessions reused, a new conversation per case (Claude: a session is a claude process, cleared with /clear; openai, azure_openai, ollama run in-process)',
      'process',
    )
    .option(
      '--max-processes <n>',
      'Claude only: most claude processes alive at once, pre-warmed spares included (default: concurrency + the few spares that pay off and free memory allows)',
    )
    .option(
      '--allow-side-effects',
      'keep Bash and file writes/edits enabled; each case gets its own working-directory copy',
      false,
    )
    .option('--keep-workdirs', 'with --allow-side-effects: keep the per-case copies and print where', false)
    .option(
      '--copy-ignored',
      'with --allow-side-effects: also copy node_modules and what .gitignore ignores',
      false,
    )
    .option(
      '-o, --output <file>',
      'write a report (.json, .xml for JUnit, .md for Markdown, .html for a page); repeatable; - for stdout (JSON unless --format)',
      (value: string, all: string[]) => [...all, value],
      [],
    )
    .option(
      '--format <format>',
      'report format when the extension does not say: json, junit, markdown or html',
    )
    .option(
      '--baseline <run>',
      'compare with an earlier run: its id, a report file, "latest" (the latest complete run) or "approved"',
    )
    .option(
      '--matrix <file|yaml>',
      "run the suite once per variant in one run: a matrix file, or the matrix as YAML (replaces agent.yaml's matrix:)",
    )
    .option('--no-save', 'do not save this run under .holodeck/runs/')
    .option('--force-ingest', 'rebuild the retrieval tool indexes before the run', false)
    .action((file: string, options: TestCommandOptions) =>
      context.run(
        testCommand(
          file,
          options,
          context.style,
          context.interruptible('stopping the running attempts, then writing the report'),
        ),
      ),
    );
  addRecordingOptions(test);
  registerVerdictOptions(test);
  registerTestApproveCommand(test, context);
  registerTestCompareCommand(test, context);
  registerTestMergeCommand(test, context);
  registerTestViewCommand(test, context);
  registerTestRegradeCommand(test, context);
  registerTestAddCommand(test, context);
  registerTestOptimizeCommand(test, context);
}

import path from 'node:path';
import type { Command } from 'commander';
import type { LoadedAgent } from '../../config/index.js';
import { UsageError } from '../../errors.js';
import type { RunReport } from '../../runner/report/run-report.js';
import type { runTestSuite } from '../../runner/run-test-suite.js';
import { errorMessage } from '../../support.js';
import type { CommandContext } from '../command-context.js';
import { ExitCode, type ExitCodeValue } from '../exit-codes.js';
import type { Style } from '../terminal-style.js';
import {
  addRecordingOptions,
  describeRecording,
  parseRecordingFlags,
  type RecordingChoice,
} from './recording-options.js';
import { type ReportOutput, resolveReportOutputs, writeReportOutputs } from './report-outputs.js';
import { registerTestAddCommand } from './test-add-command.js';
import { registerTestApproveCommand } from './test-approve-command.js';
import {
  addTestRunOptions,
  parseTestSelection,
  prepareOutput,
  type TestCommandOptions,
} from './test-command-options.js';
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
  registerVerdictOptions,
  writeCiSurfaces,
} from './verdict-options.js';

export type { TestCommandOptions } from './test-command-options.js';

type ReportModule = typeof import('../../runner/report/index.js');
type MatrixModule = typeof import('./matrix-run.js');
type LiveRunSaver = InstanceType<ReportModule['LiveRunSaver']>;
type RunOptions = NonNullable<Parameters<typeof runTestSuite>[1]>;

/** A `holodeck test` run once its flags are checked and agent.yaml is loaded. */
interface TestRun {
  agent: LoadedAgent;
  options: TestCommandOptions;
  style: Style;
  report: ReportModule;
  matrix: MatrixModule;
  variants: Awaited<ReturnType<MatrixModule['prepareMatrixRun']>>;
  judges: Awaited<ReturnType<typeof warnAboutCalibrations>>;
  recorder: Awaited<ReturnType<RecordingChoice['open']>>['recorder'];
  outputs: ReportOutput[];
  /** stderr when a report is on stdout, so stdout holds only the report. */
  summaryStream: NodeJS.WritableStream;
  terminal: ReturnType<ReportModule['terminalCapabilities']>;
  runsDir: string;
  continuation: Awaited<ReturnType<typeof loadContinuation>> | undefined;
  isolation: RunOptions['isolation'];
  baseline: RunReport | undefined;
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
  const [{ loadAgent }, runner, { parseShard }, report] = await Promise.all([
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
  const selection = parseTestSelection(options, parseShard);
  const recording = parseRecordingFlags(options);
  for (const output of outputs) if (output.target !== '-') await prepareOutput(output.given);
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
  const setup: TestRun = {
    agent,
    options,
    style,
    report,
    matrix,
    variants,
    judges,
    recorder,
    outputs,
    summaryStream,
    terminal,
    runsDir,
    continuation,
    baseline,
    isolation: options.isolation,
  };
  const run = variants
    ? async (...args: Parameters<typeof runner.runTestSuite>) =>
        (await import('../../runner/matrix/run-matrix.js')).runMatrix(args[0], variants, args[1])
    : runner.runTestSuite;
  return runAndReport(setup, run, selection, signal);
}

/** Runs the suite with progress on stderr (saved as cases finish), then reports it. */
async function runAndReport(
  setup: TestRun,
  run: (agent: LoadedAgent, options: RunOptions) => Promise<RunReport>,
  selection: ReturnType<typeof parseTestSelection>,
  signal: AbortSignal,
): Promise<ExitCodeValue> {
  const { agent, options, style, report, recorder, continuation } = setup;
  const progress = report.createProgressReporter({ stream: process.stderr, ...setup.terminal });
  let suiteCases: readonly string[] = [];
  // The record is saved as cases finish, so `holodeck test view` can follow the run.
  const saver = options.save
    ? new report.LiveRunSaver(setup.runsDir, {
        onError: (error) =>
          process.stderr.write(
            `${style.yellow('note')} could not save the run in progress (${errorMessage(error)}); it is saved at the end\n`,
          ),
      })
    : undefined;
  const result = await run(agent, {
    ...selection,
    ...(continuation ? { ...continuedSelection(continuation.run), continueFrom: continuation } : {}),
    isolation: setup.isolation,
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
  return reportTestRun(setup, result, suiteCases, saver);
}

/**
 * The run's summary, comparison and gate on the summary stream, the CI surfaces, the saved run and
 * the report files; the exit code they add up to.
 */
async function reportTestRun(
  setup: TestRun,
  result: RunReport,
  suiteCases: readonly string[],
  saver: LiveRunSaver | undefined,
): Promise<ExitCodeValue> {
  const { agent, options, style, report, matrix, variants, baseline, summaryStream } = setup;
  const color = setup.terminal.color;
  const comparison = baseline ? report.compareRuns(result, baseline, { suiteCases }) : undefined;
  summaryStream.write(
    variants
      ? `${(await import('../../runner/report/render-matrix-summary.js')).renderMatrixSummary(result, { color })}\n${await matrix.renderVariantPair(result, color)}`
      : `${report.renderSummary(result, { color })}\n`,
  );
  const recordingNote = describeRecording(setup.recorder);
  if (recordingNote) process.stderr.write(`${style.dim(recordingNote)}\n`);
  if (comparison) summaryStream.write(`${report.renderComparison(comparison, { color })}\n`);
  const gateConfig = agent.config.evaluations?.gate ?? (options.gate ? {} : undefined);
  const gate =
    gateConfig && !variants
      ? await checkGate(result, gateConfig, agent.directory, suiteCases, color, setup.judges)
      : undefined;
  const matrixGate =
    gateConfig && variants
      ? await matrix.checkMatrixGate(result, gateConfig, agent.directory, suiteCases, color, setup.judges)
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
  await writeReportOutputs(setup.outputs, result, {
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
  const test = addTestRunOptions(
    program
      .command('test')
      .description("run the agent's test cases, grade them with their metrics, and report")
      .argument('<file>', 'path to agent.yaml'),
  ).action((file: string, options: TestCommandOptions) =>
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

import { randomBytes } from 'node:crypto';
import type { AgentBackend } from '../backends/contract/index.js';
import { selectBackend } from '../backends/select-backend.js';
import type { LoadedAgent } from '../config/index.js';
import { CredentialRejectedError } from '../errors.js';
import { modelTrafficOf } from '../recording/model-traffic-of.js';
import type { Recorder } from '../recording/recorder.js';
import { type AttemptRunner, processIsolation, sessionIsolation } from './attempt-runner.js';
import { checkJudgeBudget, checkRunOptions } from './check-run-options.js';
import type { Continuation } from './continue-run.js';
import { isCredentialFailure } from './is-credential-failure.js';
import type { PreparedCase } from './prepare-suite.js';
import { prepareSuite } from './prepare-suite.js';
import { recordedAttempt } from './recorded-attempt.js';
import { maximumAttempts, type RepeatOption, repeatPlan } from './repeat-plan.js';
import { DEFAULT_CONFIDENCE } from './report/case-state.js';
import type { CaseReport, RunReport } from './report/run-report.js';
import { resolveToolNames } from './resolve-tool-names.js';
import { runAttempt } from './run-attempt.js';
import { RunRecord } from './run-record.js';
import { scheduleAttempts } from './schedule-attempts.js';
import type { CaseSelection } from './select-cases.js';
import { selectRunCases } from './select-run-cases.js';
import { planSideEffects } from './side-effect-policy.js';
import { type MetricContextOf, suiteMetricContext, usesEmbeddings } from './suite-judge.js';
import { WorkdirCopies } from './workdir-copies.js';

/** Options of `holodeck test` (and of `runTestSuite`, its library entry point). */
export interface TestRunOptions extends CaseSelection {
  /** Agent runs at a time (default 4). */
  concurrency?: number;
  /** Attempts per case, overriding each case's `repeat`: a number, or `auto` (see repeat-plan.ts). */
  repeat?: RepeatOption;
  /** Stop starting attempts once the run's known spend (agent and judge) reaches this many USD (`--max-cost`). */
  maxCostUsd?: number;
  /** Seconds per attempt when the case sets no `timeout` (default 180). */
  timeoutSeconds?: number;
  /** `process` (default): a fresh agent session per case; `session`: reused sessions, reset per case. */
  isolation?: 'process' | 'session';
  /**
   * Most agent processes (Claude CLIs) alive at once, pre-warmed spares included; below
   * `concurrency` it also lowers the runs at a time. Default: `concurrency` plus the few spares
   * that pay off and that free memory allows. Rejected on a backend that starts no processes.
   */
  maxProcesses?: number;
  /** Keep Bash and file writes/edits on; each attempt then gets its own copy of the working directory. */
  allowSideEffects?: boolean;
  /** Keep those per-attempt copies instead of removing them at the end (their folders are in `onNotice`). */
  keepWorkdirs?: boolean;
  /** Also copy what `.gitignore` ignores and `node_modules` into each per-attempt copy. */
  copyIgnored?: boolean;
  /** Environment for the judge client (default: the agent's merged environment). */
  env?: Record<string, string>;
  /** Called as soon as they are known, before any case runs. */
  onNotice?: (message: string) => void;
  onCaseStarted?: (name: string) => void;
  onCaseFinished?: (report: CaseReport) => void;
  /** Called once the cases are selected: their number, and every case name of the suite. */
  onStart?: (total: number, suiteCases: readonly string[]) => void;
  /**
   * Called after each case finishes with the record so far (`in_progress`, the finished cases):
   * `holodeck test` saves it, so `holodeck test view` can show a run as it goes.
   */
  onProgress?: (report: RunReport) => void;
  /**
   * Stops the run: running attempts are aborted, cases not started are not run, and the report
   * that comes back is marked `interrupted` when the reason is an InterruptedError.
   */
  signal?: AbortSignal;
  /** Records every model, judge and embeddings request, or replays them (`--record`, `--replay`). */
  recorder?: Recorder;
  /**
   * `--retry-errored` / `--resume`: a saved run of the same agent and suite to continue. Only its
   * errored (or unfinished) cases run; the report holds those fresh and the others as saved.
   * The selection (filter, tags, shard) should be the saved run's.
   */
  continueFrom?: Continuation;
}

/** A run once its options are checked and its cases selected, before the backend starts. */
interface PreparedRun {
  options: TestRunOptions;
  agent: LoadedAgent;
  sideEffects: ReturnType<typeof planSideEffects>;
  recorder: Recorder | undefined;
  record: RunRecord;
  suite: Awaited<ReturnType<typeof prepareSuite>>;
  selection: ReturnType<typeof selectRunCases>;
  concurrency: number;
  isolation: 'process' | 'session';
  confidence: number;
  planOf: (testCase: PreparedCase) => ReturnType<typeof repeatPlan>;
  /** Spares and session counts plan for the most attempts a case may run. */
  attemptsOf: (testCase: PreparedCase) => number;
}

/** Checks the options, prepares the suite (recorded, when recording) and selects the cases to run. */
async function prepareRun(loaded: LoadedAgent, options: TestRunOptions): Promise<PreparedRun> {
  const startedAt = new Date();
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const isolation = options.isolation ?? 'process';
  const sideEffects = planSideEffects(loaded, options.allowSideEffects ?? false);
  if (sideEffects.notice) options.onNotice?.(sideEffects.notice);
  const recorder = options.recorder;
  checkRunOptions(
    loaded,
    {
      isolation,
      maxProcesses: options.maxProcesses,
      maxCostUsd: options.maxCostUsd,
      recording: recorder !== undefined,
    },
    sideEffects,
  );
  const agent = recorder
    ? await (await import('../recording/prepare-recorded-agent.js')).prepareRecordedAgent(
        sideEffects.agent,
        recorder,
      )
    : sideEffects.agent;
  const confidence = agent.config.evaluations?.confidence ?? DEFAULT_CONFIDENCE;
  const record = new RunRecord(
    agent,
    { ...options, concurrency, isolation, allowSideEffects: options.allowSideEffects ?? false, confidence },
    randomBytes(3).toString('hex'),
    startedAt,
  );
  const suite = await prepareSuite(agent, loaded);
  checkJudgeBudget(agent, suite, options.maxCostUsd);
  const selection = selectRunCases(agent, suite, record, options);
  const { cases } = selection;
  recorder?.checkCanRecord(cases.map((testCase) => testCase.config.name));
  options.onStart?.(
    cases.length,
    suite.cases.map((testCase) => testCase.config.name),
  );
  const planOf = (testCase: PreparedCase) =>
    repeatPlan(options.repeat, testCase.config.repeat, agent.config.evaluations?.repeat);
  const attemptsOf = (testCase: PreparedCase) => maximumAttempts(planOf(testCase));
  return {
    options,
    agent,
    sideEffects,
    recorder,
    record,
    suite,
    selection,
    concurrency,
    isolation,
    confidence,
    planOf,
    attemptsOf,
  };
}

/**
 * The run's backend. Spares for the single-turn runs to come are started while they pay off (the
 * backend measures its start-ups and the model's answers in the run: bench/test-runner.mjs).
 */
function runBackend(run: PreparedRun): AgentBackend {
  const { options, recorder, concurrency } = run;
  const singleTurnRuns = run.selection.cases
    .filter((testCase) => !testCase.config.turns)
    .reduce((sum, testCase) => sum + run.attemptsOf(testCase), 0);
  // Recorded runs pre-warm too: a spare's recording route is bound to the run that takes it.
  const canPrewarm =
    run.isolation === 'process' && !run.sideEffects.isolateWorkingDirectory && singleTurnRuns > 0;
  return selectBackend(run.agent, {
    ...(canPrewarm ? { prewarm: { runs: singleTurnRuns, concurrency } } : {}),
    ...(options.maxProcesses !== undefined ? { maxProcesses: options.maxProcesses } : {}),
    ...(recorder ? { modelTraffic: modelTrafficOf(recorder) } : {}),
  });
}

/** How runCases runs an attempt. */
interface CaseRunning {
  runner: AttemptRunner;
  metricContextOf: MetricContextOf;
  workdirs: WorkdirCopies;
  /** Aborted at the first credential failure, and on the caller's signal. */
  signal: AbortSignal;
  stop: AbortController;
}

/** Schedules the selected cases' attempts and reports the run; throws at a rejected credential. */
async function runCases(run: PreparedRun, running: CaseRunning): Promise<RunReport> {
  const { options, recorder, record } = run;
  const { selected, cases, merged } = run.selection;
  const { runner, metricContextOf, workdirs, signal } = running;
  let rejected: CredentialRejectedError | undefined;
  const scheduled = await scheduleAttempts({
    cases,
    planOf: run.planOf,
    concurrency: run.concurrency,
    confidence: run.confidence,
    signal,
    ...(options.maxCostUsd !== undefined ? { maxCostUsd: options.maxCostUsd } : {}),
    ...(options.onCaseStarted ? { onCaseStarted: options.onCaseStarted } : {}),
    ...(recorder ? { onCaseSettled: (name: string) => recorder.saveCase(name) } : {}),
    onCaseFinished: (caseReport, finished) => {
      options.onCaseFinished?.(caseReport);
      const onProgress = options.onProgress;
      if (onProgress)
        void record.report(merged(finished, true), { plannedCases: selected.length }).then(onProgress);
    },
    runOne: async (testCase, number) => {
      const workingDirectory = await workdirs.create();
      const attempt = await recordedAttempt(recorder, testCase.config.name, number, (traffic) =>
        runAttempt(testCase, number, {
          runner,
          metricContext: metricContextOf(traffic?.scope),
          timeoutMs: (testCase.config.timeout ?? options.timeoutSeconds ?? 180) * 1000,
          signal,
          ...(workingDirectory ? { workingDirectory } : {}),
          ...(traffic ? { traffic } : {}),
        }),
      );
      if (!rejected && attempt.error !== undefined && isCredentialFailure(attempt.error)) {
        rejected = new CredentialRejectedError(attempt.error, testCase.config.name);
        running.stop.abort(rejected);
      }
      return attempt;
    },
  });
  if (rejected) throw rejected;
  const budget =
    options.maxCostUsd !== undefined
      ? {
          max_cost_usd: options.maxCostUsd,
          spent_usd: scheduled.spentUsd,
          reached: scheduled.budgetReached,
        }
      : undefined;
  return await record.report(merged(scheduled.reports), {
    interrupted: options.signal?.aborted === true || scheduled.budgetReached,
    ...(budget ? { budget } : {}),
  });
}

/**
 * Runs the test cases of a loaded agent (`loadAgent`) and returns the report: what `holodeck
 * test` does short of printing, writing and saving it (see writeReport, saveRun). Throws
 * ConfigError for an invalid suite, UsageError for options that select nothing, and
 * CredentialRejectedError when the API rejects the credentials (the run stops at the first).
 */
export async function runTestSuite(loaded: LoadedAgent, options: TestRunOptions = {}): Promise<RunReport> {
  const run = await prepareRun(loaded, options);
  const { agent, suite, recorder } = run;
  const backend = runBackend(run);
  // Stops every attempt at the first credential failure, and on the caller's signal.
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([stop.signal, options.signal]) : stop.signal;
  const workdirs = new WorkdirCopies(run.sideEffects, { copyIgnored: options.copyIgnored ?? false });
  try {
    await recorder?.start();
    await backend.initialize();
    for (const warning of [...agent.warnings, ...backend.warnings]) options.onNotice?.(warning.message);
    await resolveToolNames(suite, backend);
    const metricContextOf = suiteMetricContext(
      agent,
      { judge: suite.usesJudge, embeddings: usesEmbeddings(suite.cases) },
      options,
      recorder,
    );
    const runner: AttemptRunner =
      run.isolation === 'session'
        ? sessionIsolation(backend, {
            attempts: run.selection.cases.reduce((sum, testCase) => sum + run.attemptsOf(testCase), 0),
          })
        : processIsolation(backend);
    try {
      return await runCases(run, { runner, metricContextOf, workdirs, signal, stop });
    } finally {
      await runner.close();
    }
  } finally {
    await backend.teardown();
    await recorder?.close();
    const kept = await workdirs.finish(options.keepWorkdirs ?? false);
    if (kept.length) options.onNotice?.(`kept the per-case working directories: ${kept.join(', ')}`);
  }
}

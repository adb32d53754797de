import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { AgentBackend, BackendWarning } from '../backends/contract/index.js';
import { backendProfile, selectBackend } from '../backends/select-backend.js';
import type { ConfigWarning, LoadedAgent } from '../config/index.js';
import { CredentialRejectedError, UsageError } from '../errors.js';
import { judgeClientFor } from '../evals/judge/index.js';
import type { MetricContext } from '../evals/metric.js';
import { modelTrafficOf } from '../recording/model-traffic-of.js';
import type { Recorder } from '../recording/recorder.js';
import { type AttemptRunner, processIsolation, sessionIsolation } from './attempt-runner.js';
import { type Continuation, casesToContinue, mergeContinuedCases } from './continue-run.js';
import { isCredentialFailure } from './is-credential-failure.js';
import { metricEmbeddings } from './metric-embeddings.js';
import type { PreparedCase } from './prepare-suite.js';
import { prepareSuite } from './prepare-suite.js';
import { recordedAttempt } from './recorded-attempt.js';
import { maximumAttempts, type RepeatOption, repeatPlan } from './repeat-plan.js';
import { DEFAULT_CONFIDENCE } from './report/case-state.js';
import { sha256Of } from './report/redact-agent-config.js';
import type { CaseReport, RunReport } from './report/run-report.js';
import { resolveToolNames } from './resolve-tool-names.js';
import { runAttempt } from './run-attempt.js';
import { RunRecord } from './run-record.js';
import { scheduleAttempts } from './schedule-attempts.js';
import { type CaseSelection, selectCases } from './select-cases.js';
import { planSideEffects } from './side-effect-policy.js';
import { WorkdirCopies } from './workdir-copies.js';

/** Options of `holodeck test` (and of `runTestSuite`, its library entry point). */
export interface TestRunOptions extends CaseSelection {
  /** Agent runs at a time (default 4). */
  concurrency?: number;
  /** Attempts per case, overriding each case's `repeat`: a number, or `auto` (see repeat-plan.ts). */
  repeat?: RepeatOption;
  /** Stop starting attempts once the run's known spend reaches this many USD (`--max-cost`). */
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

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** `--filter "x"` and `--tag y` selecting nothing is a typo, not a green run: name what exists. */
function nothingSelected(cases: readonly PreparedCase[], options: TestRunOptions): UsageError {
  const flags = [
    ...(options.filter !== undefined ? [`--filter ${JSON.stringify(options.filter)}`] : []),
    ...(options.tags ?? []).map((tag) => `--tag ${tag}`),
    ...(options.caseNames ?? []).map((name) => `--case ${JSON.stringify(name)}`),
  ];
  const names = cases.map((testCase) => testCase.config.name);
  const tags = [...new Set(cases.flatMap((testCase) => testCase.config.tags ?? []))];
  return new UsageError(
    options.filter !== undefined ? '--filter' : options.tags?.length ? '--tag' : '--case',
    `${flags.join(' and ')} match${flags.length === 1 ? 'es' : ''} no test case`,
    `the cases are ${names.join(', ')}; their tags: ${tags.length ? tags.join(', ') : '(none)'}`,
  );
}

/**
 * Runs the test cases of a loaded agent (`loadAgent`) and returns the report: what `holodeck
 * test` does short of printing, writing and saving it (see writeReport, saveRun). Throws
 * ConfigError for an invalid suite, UsageError for options that select nothing, and
 * CredentialRejectedError when the API rejects the credentials (the run stops at the first).
 */
export async function runTestSuite(loaded: LoadedAgent, options: TestRunOptions = {}): Promise<RunReport> {
  const startedAt = new Date();
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const isolation = options.isolation ?? 'process';
  const sideEffects = planSideEffects(loaded, options.allowSideEffects ?? false);
  if (sideEffects.notice) options.onNotice?.(sideEffects.notice);
  const profile = backendProfile(loaded.config.model.provider);
  if (!profile.isolationLevels.includes(isolation)) {
    throw new UsageError(
      '--isolation',
      `${isolation} is not supported by the ${profile.name} backend (provider ${loaded.config.model.provider})`,
      `use --isolation ${profile.isolationLevels.join(' or ')}`,
    );
  }
  if (options.maxProcesses !== undefined && !profile.agentProcesses) {
    throw new UsageError(
      '--max-processes',
      `the ${profile.name} backend (provider ${loaded.config.model.provider}) runs agents in-process and starts no agent processes to bound`,
      'leave --max-processes out, or use --concurrency to bound the runs at a time',
    );
  }
  const unknownCost = profile.unknownCostReason(loaded.config);
  if (options.maxCostUsd !== undefined && unknownCost !== undefined) {
    throw new UsageError(
      '--max-cost',
      `the cost of this agent's runs is unknown (${unknownCost}), so a budget cannot be kept`,
      'set pricing: in agent.yaml, or leave --max-cost out',
    );
  }
  if (isolation === 'session' && sideEffects.isolateWorkingDirectory) {
    throw new UsageError(
      '--isolation',
      'session cannot give each test case its own working directory',
      'use --isolation process with --allow-side-effects',
    );
  }
  const recorder = options.recorder;
  if (recorder && isolation === 'session')
    throw new UsageError(
      '--isolation',
      'session reuses one agent process across cases, so its requests cannot be told apart by case in a recording',
      'leave --isolation out (process) with --record or --replay',
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
  const selected = selectCases(suite.cases, options);
  if (!selected.length && (options.filter !== undefined || options.tags?.length || options.caseNames?.length))
    throw nothingSelected(suite.cases, options);
  const suiteHash = sha256Of({
    test_cases: suite.cases.map((testCase) => testCase.config),
    metrics: agent.config.evaluations?.metrics ?? null,
  });
  record.setSuiteCases(suite.cases.map((testCase) => testCase.config.name));
  record.setSuiteHash(suiteHash);
  const selectedNames = selected.map((testCase) => testCase.config.name);
  const continuation = options.continueFrom;
  const rerun = continuation
    ? new Set(
        casesToContinue(continuation, { configHash: record.configHash, suiteHash, selected: selectedNames }),
      )
    : undefined;
  const cases = rerun ? selected.filter((testCase) => rerun.has(testCase.config.name)) : selected;
  if (continuation && rerun) {
    record.setContinuedFrom({ run_id: continuation.run.run_id, mode: continuation.mode, cases: [...rerun] });
    const kept = selectedNames.length - rerun.size;
    const what = continuation.mode === 'resume' ? 'it did not finish' : 'that errored';
    options.onNotice?.(
      `continuing run ${continuation.run.run_id}: running the ${plural(rerun.size, 'case')} ${what} again; the other ${kept} come from it as saved`,
    );
  }
  // A continued run's report: the fresh cases, and the saved ones it did not run again.
  const merged = (fresh: readonly CaseReport[], partial = false): CaseReport[] => {
    if (!continuation) return [...fresh];
    const run = partial
      ? { ...continuation.run, cases: continuation.run.cases.filter((c) => !rerun?.has(c.name)) }
      : continuation.run;
    return mergeContinuedCases({ ...continuation, run }, selectedNames, fresh);
  };
  recorder?.checkCanRecord(cases.map((testCase) => testCase.config.name));
  options.onStart?.(
    cases.length,
    suite.cases.map((testCase) => testCase.config.name),
  );

  // Spares for the single-turn runs to come, started while they pay off (the backend measures
  // its start-ups and the model's answers in the run: bench/test-runner.mjs).
  const planOf = (testCase: PreparedCase) =>
    repeatPlan(options.repeat, testCase.config.repeat, agent.config.evaluations?.repeat);
  // Spares and session counts plan for the most attempts a case may run.
  const attemptsOf = (testCase: PreparedCase) => maximumAttempts(planOf(testCase));
  const singleTurnRuns = cases
    .filter((testCase) => !testCase.config.turns)
    .reduce((sum, testCase) => sum + attemptsOf(testCase), 0);
  const canPrewarm =
    !recorder && isolation === 'process' && !sideEffects.isolateWorkingDirectory && singleTurnRuns > 0;
  const backend: AgentBackend = selectBackend(agent, {
    ...(canPrewarm ? { prewarm: { runs: singleTurnRuns, concurrency } } : {}),
    ...(options.maxProcesses !== undefined ? { maxProcesses: options.maxProcesses } : {}),
    ...(recorder ? { modelTraffic: modelTrafficOf(recorder) } : {}),
  });
  // Stops every attempt at the first credential failure, and on the caller's signal.
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([stop.signal, options.signal]) : stop.signal;
  const workdirs = new WorkdirCopies(sideEffects, { copyIgnored: options.copyIgnored ?? false });
  let rejected: CredentialRejectedError | undefined;
  try {
    await recorder?.start();
    await backend.initialize();
    for (const warning of [...agent.warnings, ...backend.warnings] as BackendWarning[])
      options.onNotice?.(warning.message);
    await resolveToolNames(suite, backend);
    const metricContext: MetricContext = {
      ...(suite.usesJudge ? { judge: judgeFor(agent, options, recorder) } : {}),
      ...(usesEmbeddings(suite.cases)
        ? { embed: metricEmbeddings(agent, recorder?.fetchFor('embeddings')) }
        : {}),
    };
    const runner: AttemptRunner =
      isolation === 'session'
        ? sessionIsolation(backend, {
            attempts: cases.reduce((sum, testCase) => sum + attemptsOf(testCase), 0),
          })
        : processIsolation(backend);
    try {
      const scheduled = await scheduleAttempts({
        cases,
        planOf,
        concurrency,
        confidence,
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
          const attempt = await recordedAttempt(recorder, testCase.config.name, number, () =>
            runAttempt(testCase, number, {
              runner,
              metricContext,
              timeoutMs: (testCase.config.timeout ?? options.timeoutSeconds ?? 180) * 1000,
              signal,
              ...(workingDirectory ? { workingDirectory } : {}),
            }),
          );
          if (!rejected && attempt.error !== undefined && isCredentialFailure(attempt.error)) {
            rejected = new CredentialRejectedError(attempt.error, testCase.config.name);
            stop.abort(rejected);
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

/**
 * Warnings `holodeck validate` gives about the judge of judge metrics: its credentials missing
 * from this environment (validation often runs without secrets; `test` then stops), or settings
 * it cannot honour. The same model choice as the run's judge.
 */
export function judgeWarnings(agent: LoadedAgent, env?: Record<string, string>): ConfigWarning[] {
  const model = agent.config.evaluations?.model ?? agent.config.model;
  const warnings: ConfigWarning[] = [];
  const warn = (message: string) => warnings.push({ code: 'judge', message, file: agent.file });
  try {
    judgeClientFor(model, {
      env: env ?? agent.env,
      cacheDir: path.join(agent.directory, '.holodeck', 'cache', 'judge'),
      onWarning: warn,
      settingsPath: agent.config.evaluations?.model ? 'evaluations.model' : 'model',
    });
  } catch (error) {
    warn(`judge metrics: ${error instanceof Error ? error.message : String(error)}`);
  }
  return warnings;
}

/** The judge: `evaluations.model`, else the agent's own model; any provider, answers forced into a schema. */
/** True when a metric of the cases embeds texts (similar). */
export function usesEmbeddings(cases: readonly PreparedCase[]): boolean {
  return cases.some((testCase) =>
    [...testCase.metrics, ...testCase.turnMetrics.flat()].some((metric) => metric.type === 'similar'),
  );
}

export function judgeFor(agent: LoadedAgent, options: TestRunOptions, recorder?: Recorder) {
  const judgeModel = agent.config.evaluations?.model;
  return judgeClientFor(judgeModel ?? agent.config.model, {
    env: options.env ?? agent.env,
    // A recorded run asks every judge (a cached verdict would be missing from the recording).
    ...(recorder
      ? { fetch: recorder.fetchFor('judge') }
      : { cacheDir: path.join(agent.directory, '.holodeck', 'cache', 'judge') }),
    ...(options.onNotice ? { onWarning: options.onNotice } : {}),
    settingsPath: judgeModel ? 'evaluations.model' : 'model',
    samplingTemperature: judgeModel?.temperature,
  });
}

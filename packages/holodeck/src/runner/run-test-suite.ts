import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { AgentBackend, BackendWarning } from '../backends/contract/index.js';
import { backendProfile, selectBackend } from '../backends/select-backend.js';
import type { LoadedAgent } from '../config/index.js';
import { ConfigError } from '../errors.js';
import { judgeClientFor } from '../evals/judge/index.js';
import type { MetricContext } from '../evals/metric.js';
import { type AttemptRunner, processIsolation, sessionIsolation } from './attempt-runner.js';
import { buildCaseReport, summarise } from './build-case-report.js';
import type { PreparedCase } from './prepare-suite.js';
import { prepareSuite } from './prepare-suite.js';
import type { CaseAttempt, CaseReport, RunReport } from './report/run-report.js';
import { RUN_REPORT_SCHEMA_VERSION } from './report/run-report.js';
import { runAttempt } from './run-attempt.js';
import { type CaseSelection, selectCases } from './select-cases.js';
import { copyWorkingDirectory, planSideEffects } from './side-effect-policy.js';

/** Options of `holodeck test`. */
export interface TestRunOptions extends CaseSelection {
  /** Agent runs at a time (default 4). */
  concurrency?: number;
  /** Attempts per case, overriding each case's `repeat`. */
  repeat?: number;
  /** Seconds per attempt when the case sets no `timeout` (default 180). */
  timeoutSeconds?: number;
  isolation?: 'process' | 'session';
  allowSideEffects?: boolean;
  /** Environment for the judge client (default: the agent's merged environment). */
  env?: Record<string, string>;
  /** Called as soon as they are known, before any case runs. */
  onNotice?: (message: string) => void;
  onCaseStarted?: (name: string) => void;
  onCaseFinished?: (report: CaseReport) => void;
  /** Called once the cases are selected, with their number. */
  onStart?: (total: number) => void;
  signal?: AbortSignal;
}

function runId(startedAt: Date): string {
  return `${startedAt.toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`;
}

/** Runs `tasks` with at most `limit` at a time, in order of start. */
async function pool<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      const task = tasks[index];
      if (task) results[index] = await task();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

/** Runs the test cases of an agent and returns the report (the CLI writes and saves it). */
export async function runTestSuite(loaded: LoadedAgent, options: TestRunOptions = {}): Promise<RunReport> {
  const startedAt = new Date();
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const isolation = options.isolation ?? 'process';
  const sideEffects = planSideEffects(loaded, options.allowSideEffects ?? false);
  if (sideEffects.notice) options.onNotice?.(sideEffects.notice);
  const profile = backendProfile(loaded.config.model.provider);
  if (!profile.isolationLevels.includes(isolation)) {
    throw new ConfigError([
      {
        file: loaded.file,
        path: 'model.provider',
        message: `--isolation ${isolation} is not supported by the ${profile.name} backend (provider ${loaded.config.model.provider})`,
        hint: `use --isolation ${profile.isolationLevels.join(' or ')}`,
      },
    ]);
  }
  if (isolation === 'session' && sideEffects.isolateWorkingDirectory) {
    throw new ConfigError([
      {
        file: loaded.file,
        path: 'claude',
        message: '--isolation session cannot give each test case its own working directory',
        hint: 'use --isolation process with --allow-side-effects',
      },
    ]);
  }
  const agent = sideEffects.agent;
  const suite = await prepareSuite(agent);
  const cases = selectCases(suite.cases, options);
  options.onStart?.(cases.length);

  // Pre-warm as many processes as run at once, and never more in all than single-turn runs to come:
  // spares start while earlier model calls are in flight (measured in bench/test-runner.mjs).
  const singleTurnRuns = cases
    .filter((testCase) => !testCase.config.turns)
    .reduce((sum, testCase) => sum + (options.repeat ?? testCase.config.repeat ?? 1), 0);
  const canPrewarm = isolation === 'process' && !sideEffects.isolateWorkingDirectory;
  const backend: AgentBackend = selectBackend(agent, {
    prewarm: canPrewarm ? Math.min(concurrency, singleTurnRuns) : 0,
    prewarmBudget: singleTurnRuns,
  });
  await backend.initialize();
  for (const warning of [...agent.warnings, ...backend.warnings] as BackendWarning[])
    options.onNotice?.(warning.message);
  const metricContext: MetricContext = suite.usesJudge ? { judge: judgeFor(agent, options) } : {};
  const runner: AttemptRunner =
    isolation === 'session' ? sessionIsolation(backend) : processIsolation(backend);

  try {
    const attemptsByCase = new Map<PreparedCase, CaseAttempt[]>();
    const remaining = new Map<PreparedCase, number>();
    const tasks = cases.flatMap((testCase) => {
      const count = options.repeat ?? testCase.config.repeat ?? 1;
      remaining.set(testCase, count);
      attemptsByCase.set(testCase, []);
      return Array.from({ length: count }, (_, index) => async () => {
        if (options.signal?.aborted) return;
        if (index === 0) options.onCaseStarted?.(testCase.config.name);
        const workingDirectory = sideEffects.isolateWorkingDirectory
          ? await copyWorkingDirectory(agent)
          : undefined;
        const attempt = await runAttempt(testCase, index + 1, {
          runner,
          metricContext,
          timeoutMs: (testCase.config.timeout ?? options.timeoutSeconds ?? 180) * 1000,
          ...(options.signal ? { signal: options.signal } : {}),
          ...(workingDirectory ? { workingDirectory } : {}),
        });
        attemptsByCase.get(testCase)?.push(attempt);
        const left = (remaining.get(testCase) ?? 1) - 1;
        remaining.set(testCase, left);
        if (left === 0) options.onCaseFinished?.(report(testCase));
      });
    });
    const report = (testCase: PreparedCase) =>
      buildCaseReport(
        testCase,
        [...(attemptsByCase.get(testCase) ?? [])].sort((a, b) => a.attempt - b.attempt),
      );
    await pool(tasks, concurrency);
    const caseReports = cases.map(report);
    const finishedAt = new Date();
    return {
      schema_version: RUN_REPORT_SCHEMA_VERSION,
      run_id: runId(startedAt),
      started_at: startedAt.toISOString(),
      finished_at: finishedAt.toISOString(),
      agent: {
        name: agent.config.name,
        file: agent.file,
        model: agent.config.model.name,
        provider: agent.config.model.provider,
      },
      options: {
        concurrency,
        ...(options.repeat !== undefined ? { repeat: options.repeat } : {}),
        isolation,
        ...(options.filter !== undefined ? { filter: options.filter } : {}),
        ...(options.tags?.length ? { tags: [...options.tags] } : {}),
        ...(options.shard ? { shard: `${options.shard.index}/${options.shard.count}` } : {}),
        allow_side_effects: options.allowSideEffects ?? false,
      },
      summary: summarise(caseReports, finishedAt.getTime() - startedAt.getTime()),
      cases: caseReports,
    };
  } finally {
    await runner.close();
    await backend.teardown();
  }
}

/** The judge: `evaluations.model`, else the agent's own model; any provider, answers forced into a schema. */
function judgeFor(agent: LoadedAgent, options: TestRunOptions) {
  const judgeModel = agent.config.evaluations?.model;
  return judgeClientFor(judgeModel ?? agent.config.model, {
    env: options.env ?? agent.env,
    cacheDir: path.join(agent.directory, '.holodeck', 'cache', 'judge'),
    ...(options.onNotice ? { onWarning: options.onNotice } : {}),
    settingsPath: judgeModel ? 'evaluations.model' : 'model',
  });
}

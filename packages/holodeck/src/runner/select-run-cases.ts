import type { LoadedAgent } from '../config/index.js';
import { UsageError } from '../errors.js';
import { type Continuation, casesToContinue, mergeContinuedCases } from './continue-run.js';
import type { PreparedCase, PreparedSuite } from './prepare-suite.js';
import { sha256Of } from './report/redact-agent-config.js';
import type { CaseReport } from './report/run-report.js';
import type { RunRecord } from './run-record.js';
import { type CaseSelection, selectCases } from './select-cases.js';

/** The cases a run runs, and how its report puts them together with a continued run's. */
export interface RunCases {
  /** The cases the selection flags chose. */
  selected: readonly PreparedCase[];
  /** Those this run runs: all of them, or those of a continued run that must run again. */
  cases: readonly PreparedCase[];
  /** The report's cases: the fresh ones and, continuing a run, its saved others (`partial`: so far). */
  merged(fresh: readonly CaseReport[], partial?: boolean): CaseReport[];
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** `--filter "x"` and `--tag y` selecting nothing is a typo, not a green run: name what exists. */
function nothingSelected(cases: readonly PreparedCase[], options: CaseSelection): UsageError {
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
 * Selects the run's cases (a selection that matches nothing is a UsageError naming what exists),
 * records the suite's case names and hash, and with `continueFrom` keeps only the cases to run
 * again (saying so through `onNotice`).
 */
export function selectRunCases(
  agent: LoadedAgent,
  suite: PreparedSuite,
  record: RunRecord,
  options: CaseSelection & { continueFrom?: Continuation; onNotice?: (message: string) => void },
): RunCases {
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
  const merged = (fresh: readonly CaseReport[], partial = false): CaseReport[] => {
    if (!continuation) return [...fresh];
    const run = partial
      ? { ...continuation.run, cases: continuation.run.cases.filter((c) => !rerun?.has(c.name)) }
      : continuation.run;
    return mergeContinuedCases({ ...continuation, run }, selectedNames, fresh);
  };
  return { selected, cases, merged };
}

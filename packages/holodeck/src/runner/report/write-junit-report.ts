import { caseIntervalOf, caseStateOf, countAttempts } from './case-state.js';
import {
  type CaseStatus,
  caseDuration,
  caseStatus,
  describeCaseProblem,
  describeFailure,
  describeRepeats,
  failuresOfAttempt,
} from './case-status.js';
import type { CaseAttempt, CaseReport, RunReport } from './run-report.js';
import { variantRun } from './variant-run.js';
import { escapeXmlText, xmlAttributes } from './xml-text.js';

/**
 * The JUnit XML report (the Ant/Jenkins dialect CI systems read): `<testsuites>` holding one
 * `<testsuite>` named after the agent, one `<testcase>` per case. A case that ran and failed has a
 * `<failure>`, a case whose agent run failed has an `<error>`; repeats are spelled out in the
 * message and body. Text is escaped and characters XML 1.0 forbids are dropped.
 */
export function writeJunitReport(report: RunReport): string {
  // A matrix run: one <testsuite> per variant, named `<agent> [<variant>]`, with its own figures.
  const suites = report.matrix
    ? report.matrix.variants.map((variant) => ({
        run: variantRun(report, variant.name),
        name: `${report.agent.name} [${variant.name}]`,
        variant: variant.name,
      }))
    : [{ run: report, name: report.agent.name, variant: undefined }];
  const all = suites.map((suite) => testsuite(suite.run, suite.name, suite.variant));
  const sum = (key: 'tests' | 'failures' | 'errors' | 'skipped') =>
    all.reduce((total, suite) => total + suite.counts[key], 0);
  const counts = {
    tests: sum('tests'),
    failures: sum('failures'),
    errors: sum('errors'),
    skipped: sum('skipped'),
    time: seconds(report.summary.duration_ms),
  };
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${xmlAttributes({ name: 'holodeck test', ...counts })}>`,
    ...all.flatMap((suite) => suite.lines),
    '</testsuites>',
  ];
  return `${lines.join('\n')}\n`;
}

/** One <testsuite>: a plain run's cases, or one variant's (then a `variant` property names it). */
function testsuite(report: RunReport, agent: string, variant: string | undefined) {
  const statuses = report.cases.map(caseStatus);
  const failures = statuses.filter((status) => status === 'fail').length;
  const errors = statuses.filter((status) => status === 'error').length;
  const skipped = statuses.filter((status) => status === 'stopped').length;
  const counts = {
    tests: report.cases.length,
    failures,
    errors,
    skipped,
    time: seconds(report.summary.duration_ms),
  };
  const properties: Record<string, string | number | undefined> = {
    run_id: report.run_id,
    variant,
    agent_file: report.agent.file,
    model: report.agent.model,
    provider: report.agent.provider,
    repeat: report.options.repeat,
    pass_rate: report.summary.pass_rate,
    confidence: report.summary.confidence,
    attempts_finished: report.summary.attempts?.finished,
    attempts_errored: report.summary.attempts?.errored,
    attempt_pass_rate: report.summary.attempts?.pass_rate,
    attempt_pass_rate_lower: report.summary.attempts?.pass_interval?.lower,
    attempt_pass_rate_upper: report.summary.attempts?.pass_interval?.upper,
    cases_flaky: report.summary.states?.flaky,
    total_tokens: report.summary.token_usage.total_tokens,
    // Rounded: a sum of float costs carries noise (0.30000000000000004).
    cost_usd: roundedCost(report.summary.cost_usd),
    judge_cost_usd: roundedCost(report.summary.judge_cost_usd),
    judge_calls: report.summary.judge_calls?.billed,
    judge_calls_cached: report.summary.judge_calls?.cached,
    total_cost_usd: roundedCost(report.summary.total_cost_usd),
    // Per case (junit.xsd allows properties on the suite only): state, pass rate and interval.
    ...Object.fromEntries(
      report.cases.map((caseReport) => [`case[${caseReport.name}]`, caseFigures(caseReport)]),
    ),
  };
  const lines = [
    `  <testsuite${xmlAttributes({ name: agent, ...counts, timestamp: junitTimestamp(report.started_at) })}>`,
    '    <properties>',
    ...Object.entries(properties)
      .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
      .map(([name, value]) => `      <property${xmlAttributes({ name, value })}/>`),
    '    </properties>',
    ...report.cases.flatMap((caseReport, index) => testcase(agent, caseReport, statuses[index] ?? 'fail')),
    '  </testsuite>',
  ];
  return { counts, lines };
}

/** `flaky · pass rate 0.667 · [0.208, 0.939] at 0.95 · 3 finished attempts`, for a case's property. */
function caseFigures(caseReport: CaseReport): string {
  const interval = caseIntervalOf(caseReport);
  const finished = countAttempts(caseReport.attempts).finished;
  const round = (value: number) => String(Math.round(value * 1000) / 1000);
  const spread = interval
    ? `[${round(interval.lower)}, ${round(interval.upper)}] at ${interval.confidence}`
    : 'no interval (fewer than 2 finished attempts)';
  return `${caseStateOf(caseReport)} · pass rate ${round(caseReport.pass_rate)} · ${spread} · ${finished} finished attempt${finished === 1 ? '' : 's'}`;
}

function testcase(agent: string, caseReport: CaseReport, status: CaseStatus): string[] {
  const open = `    <testcase${xmlAttributes({ classname: agent, name: caseReport.name, time: seconds(caseDuration(caseReport)) })}>`;
  const body: string[] = [];
  if (status === 'stopped') {
    body.push(
      `      <skipped${xmlAttributes({ message: 'the run was interrupted before this case finished' })}/>`,
    );
  } else if (status === 'error') {
    const message = caseReport.error ?? 'the agent run failed';
    const type = caseReport.attempts.some((attempt) => attempt.error !== undefined)
      ? 'AgentRunError'
      : 'MetricError';
    body.push(
      `      <error${xmlAttributes({ message, type })}>${escapeXmlText(details(caseReport))}</error>`,
    );
  } else if (status === 'fail') {
    const message = describeCaseProblem(caseReport);
    body.push(
      `      <failure${xmlAttributes({ message, type: 'MetricFailure' })}>${escapeXmlText(details(caseReport))}</failure>`,
    );
  }
  // A repeated case says how its attempts went first, whatever its status (CI shows system-out).
  const repeats = describeRepeats(caseReport);
  const out = repeats ? `[${repeats}]\n${caseReport.response}` : caseReport.response;
  body.push(`      <system-out>${escapeXmlText(out)}</system-out>`);
  return [open, ...body, '    </testcase>'];
}

/** The body of a failure or error: every attempt's outcome with each failed metric's reason. */
function details(caseReport: CaseReport): string {
  const lines: string[] = [];
  const repeats = describeRepeats(caseReport);
  if (repeats) lines.push(repeats);
  const several = caseReport.attempts.length > 1;
  for (const attempt of caseReport.attempts) {
    if (attempt.passed) continue;
    const indent = several ? '  ' : '';
    if (several) lines.push(`attempt ${attempt.attempt}:`);
    lines.push(...attemptLines(attempt).map((line) => `${indent}${line}`));
  }
  return lines.join('\n');
}

function attemptLines(attempt: CaseAttempt): string[] {
  if (attempt.error !== undefined) return [`error: ${attempt.error}`];
  return failuresOfAttempt(attempt).map((failure) => `${describeFailure(failure)}: ${failure.metric.reason}`);
}

function seconds(milliseconds: number): string {
  return (milliseconds / 1000).toFixed(3);
}

/** JUnit timestamps are ISO 8601 without a zone (the Ant schema's pattern); ours are UTC. */
function junitTimestamp(isoTimestamp: string): string {
  const date = new Date(isoTimestamp);
  return Number.isNaN(date.getTime()) ? isoTimestamp : date.toISOString().slice(0, 19);
}

/** A cost to a millionth of a dollar; undefined (no property) when unknown or not recorded. */
function roundedCost(usd: number | null | undefined): number | undefined {
  return usd === null || usd === undefined ? undefined : Math.round(usd * 1e6) / 1e6;
}

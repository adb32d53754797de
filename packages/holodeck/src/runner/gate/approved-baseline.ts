import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { emptyTokenUsage } from '../../backends/contract/index.js';
import { caseStateOf, countAttempts } from '../report/case-state.js';
import type { CaseReport, RunReport } from '../report/run-report.js';
import { RunReportError } from '../report/run-report-error.js';

/** Where the approved baseline of an agent lives: `<agent folder>/.holodeck/approved-baseline.json`. */
export function approvedBaselinePath(agentFolder: string): string {
  return path.join(agentFolder, '.holodeck', 'approved-baseline.json');
}

const APPROVED_VERSION = 1;

const ApprovedMetricSchema = z.strictObject({ name: z.string(), score: z.number(), passed: z.boolean() });
const ApprovedCaseSchema = z.strictObject({
  name: z.string(),
  state: z.enum(['passing', 'failing', 'flaky']),
  passed: z.boolean(),
  min_pass_rate: z.number().min(0).max(1),
  /** Per attempt: passed, and its metrics' scores (no transcripts). */
  attempts: z.array(z.strictObject({ passed: z.boolean(), metrics: z.array(ApprovedMetricSchema) })),
});

/** The approved baseline file: a run's per-case results, small enough to commit. */
export const ApprovedBaselineSchema = z.strictObject({
  schema_version: z.literal(APPROVED_VERSION),
  run_id: z.string(),
  approved_at: z.string(),
  started_at: z.string(),
  agent: z.strictObject({
    name: z.string(),
    model: z.string(),
    provider: z.string(),
    config_hash: z.string().nullable(),
    suite_hash: z.string().nullable(),
  }),
  confidence: z.number().gt(0).lt(1),
  cases: z.array(ApprovedCaseSchema),
});
/** An approved baseline. */
export type ApprovedBaseline = z.infer<typeof ApprovedBaselineSchema>;

/** Why a run cannot be approved: its errored, stopped and missing cases; empty when it can. */
export function approvalProblems(report: RunReport): string[] {
  const problems: string[] = [];
  const names = (cases: readonly CaseReport[]) => cases.map((entry) => entry.name).join(', ');
  const errored = report.cases.filter((entry) => caseStateOf(entry) === 'errored');
  const stopped = report.cases.filter((entry) => caseStateOf(entry) === 'stopped');
  if (report.in_progress) problems.push('it is still in progress (or died before it finished)');
  if (errored.length) problems.push(`${errored.length} errored case(s): ${names(errored)}`);
  if (stopped.length) problems.push(`${stopped.length} stopped case(s): ${names(stopped)}`);
  const ran = new Set(report.cases.map((entry) => entry.name));
  const missing = (report.suite_cases ?? []).filter((name) => !ran.has(name));
  if (missing.length)
    problems.push(
      `${missing.length} case(s) of the suite missing (a --filter, --tag or --shard run?): ${missing.join(', ')}`,
    );
  if (ran.size !== report.cases.length) problems.push('it has duplicate case names');
  return problems;
}

/** The approved baseline of a run; throws RunReportError when the run cannot be approved. */
export function approveRun(report: RunReport, source: string, now = new Date()): ApprovedBaseline {
  const problems = approvalProblems(report);
  if (problems.length) {
    throw new RunReportError(
      source,
      `Cannot approve run ${report.run_id}: ${problems.join('; ')}. Approve a complete run of the whole suite (rerun \`holodeck test\` without a selection, or \`--retry-errored\`).`,
    );
  }
  return {
    schema_version: APPROVED_VERSION,
    run_id: report.run_id,
    approved_at: now.toISOString(),
    started_at: report.started_at,
    agent: {
      name: report.agent.name,
      model: report.agent.model,
      provider: report.agent.provider,
      config_hash: report.agent.config_hash,
      suite_hash: report.agent.suite_hash ?? null,
    },
    confidence: report.summary.confidence ?? 0.95,
    cases: report.cases.map((entry) => {
      const state = caseStateOf(entry);
      return {
        name: entry.name,
        state: state === 'passing' || state === 'failing' ? state : 'flaky',
        passed: entry.passed,
        min_pass_rate: entry.min_pass_rate,
        attempts: entry.attempts.map((attempt) => ({
          passed: attempt.passed,
          metrics: attempt.metrics.map((metric) => ({
            name: metric.name,
            score: metric.score,
            passed: metric.passed,
          })),
        })),
      };
    }),
  };
}

/** Writes the approved baseline atomically; returns its path. */
export async function writeApprovedBaseline(
  agentFolder: string,
  baseline: ApprovedBaseline,
): Promise<string> {
  const target = approvedBaselinePath(agentFolder);
  await mkdir(path.dirname(target), { recursive: true });
  const temporary = `${target}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(baseline, null, 2)}\n`);
  await rename(temporary, target);
  return target;
}

/** Reads the approved baseline of an agent folder; throws RunReportError naming the file. */
export async function readApprovedBaseline(agentFolder: string): Promise<ApprovedBaseline> {
  const file = approvedBaselinePath(agentFolder);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new RunReportError(
      file,
      `No approved baseline at ${file}. Approve a run first: \`holodeck test approve <run-id> ${path.join(agentFolder, 'agent.yaml')}\`.`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new RunReportError(file, `Invalid approved baseline ${file}: not valid JSON (${String(error)}).`);
  }
  const result = ApprovedBaselineSchema.safeParse(data);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new RunReportError(
      file,
      `Invalid approved baseline ${file}: ${issue?.path.join('.') || 'the file'}: ${issue?.message}. Approve a run again to rewrite it.`,
    );
  }
  return result.data;
}

/** The approved baseline as a run report, so compareRuns and the gate read it like any run. */
export function approvedAsRun(baseline: ApprovedBaseline, file: string): RunReport {
  const cases = baseline.cases.map((entry): CaseReport => {
    const attempts = entry.attempts.map((attempt, index) => ({
      attempt: index + 1,
      passed: attempt.passed,
      response: '',
      tool_calls: [],
      tool_results: [],
      metrics: attempt.metrics.map((metric) => ({ ...metric, type: metric.name, reason: '' })),
      score: 0,
      token_usage: emptyTokenUsage(),
      cost_usd: null,
      num_turns: 0,
      duration_ms: 0,
    }));
    const counts = countAttempts(attempts);
    return {
      name: entry.name,
      tags: [],
      input: '',
      passed: entry.passed,
      errored: false,
      state: entry.state,
      pass_rate: counts.finished ? counts.passed / counts.finished : 0,
      min_pass_rate: entry.min_pass_rate,
      finished_attempts: counts.finished,
      pass_at_k: counts.passed > 0 ? 1 : 0,
      pass_pow_k: counts.passed === counts.finished ? 1 : 0,
      attempts,
      response: '',
      tool_calls: [],
      tool_results: [],
      metrics: attempts[0]?.metrics ?? [],
      score: 0,
      token_usage: emptyTokenUsage(),
      num_turns: 0,
      duration_ms: 0,
    };
  });
  return {
    schema_version: 2,
    run_id: `approved:${baseline.run_id}`,
    started_at: baseline.started_at,
    finished_at: baseline.approved_at,
    agent: {
      name: baseline.agent.name,
      file,
      model: baseline.agent.model,
      provider: baseline.agent.provider,
      config_hash: baseline.agent.config_hash,
      config: null,
      instructions_hash: null,
      ...(baseline.agent.suite_hash ? { suite_hash: baseline.agent.suite_hash } : {}),
    },
    environment: null,
    suite_cases: cases.map((entry) => entry.name),
    options: { concurrency: 1, isolation: 'process', allow_side_effects: false },
    summary: {
      total: cases.length,
      passed: cases.filter((entry) => entry.passed).length,
      failed: cases.filter((entry) => !entry.passed).length,
      errored: 0,
      pass_rate: cases.length ? cases.filter((entry) => entry.passed).length / cases.length : 0,
      duration_ms: 0,
      token_usage: emptyTokenUsage(),
      cost_usd: null,
      confidence: baseline.confidence,
    },
    cases,
  };
}

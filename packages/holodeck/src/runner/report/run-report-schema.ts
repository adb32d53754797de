import { isRecord } from 'yaml-diagnostics';
import { z } from 'zod';
import { errorMessage } from '../../support.js';
import { CaseReportSchema, count, fraction, RunSummarySchema, timestamp } from './case-report-schema.js';
import { describeReportIssue } from './describe-report-issue.js';
import { RUN_REPORT_SCHEMA_VERSION, type RunReport } from './run-report.js';
import { RunReportError } from './run-report-error.js';

// Objects are loose: a reader of version N accepts (and keeps) keys added by a later compatible
// release, while a missing or mistyped known field is an error. Key order here is the order
// writeJsonReport writes.

const sha256 = z.string().regex(/^sha256:[0-9a-f]{64}$/);

const ChangeIntervalSchema = z.looseObject({
  estimate: z.number().min(-1).max(1),
  lower: z.number().min(-1).max(1),
  upper: z.number().min(-1).max(1),
  confidence: z.number().gt(0).lt(1),
  method: z.string(),
});
const tally = z.looseObject({ passed: count, finished: count });

const ComparisonSchema = z.looseObject({
  baseline_run_id: z.string(),
  confidence: z.number().gt(0).lt(1),
  compared_cases: count.describe('Cases both runs finished: every figure is over these.'),
  not_selected: z.array(z.string()),
  differences: z.array(z.string()),
  counts: z.record(z.string(), count),
  cost: z
    .looseObject({
      baseline_usd: z.number().nonnegative().nullable(),
      current_usd: z.number().nonnegative().nullable(),
      delta_usd: z.number().nullable(),
      baseline_per_passed_case_usd: z.number().nonnegative().nullable(),
      current_per_passed_case_usd: z.number().nonnegative().nullable(),
      delta_per_passed_case_usd: z.number().nullable(),
    })
    .optional()
    .describe('What the compared cases cost in each run, in all and per passed case; null when unknown.'),
  suite: z.looseObject({
    baseline_pass_rate: fraction,
    current_pass_rate: fraction,
    delta: ChangeIntervalSchema.extend({ seed: z.int(), resamples: count }).describe(
      'Paired (case-resampling) bootstrap percentile interval of current − baseline attempt pass rate.',
    ),
    mcnemar: z
      .looseObject({ baseline_only: count, current_only: count, p_value: fraction })
      .nullable()
      .describe('Exact McNemar test, when every compared case ran once in each run.'),
    wins: count,
    losses: count,
    ties: count,
    verdict: z.enum(['regressed', 'improved', 'no-significant-change']),
    verdict_basis: z.enum(['mcnemar', 'bootstrap', 'pooled-newcombe']),
    chance: z.looseObject({
      expected_false_regressions: z.number().nonnegative(),
      at_least_one: fraction,
    }),
  }),
  cases: z.array(
    z.looseObject({
      name: z.string(),
      change: z.string(),
      not_compared_reason: z.string().optional(),
      cost_per_attempt_delta_usd: z
        .number()
        .nullable()
        .optional()
        .describe('Change in the mean cost of one attempt (current − baseline), USD; null when unknown.'),
      baseline: tally.optional(),
      current: tally.optional(),
      delta: ChangeIntervalSchema.optional().describe("Newcombe's interval of the change in pass rate."),
      p_value: fraction.optional().describe("Fisher's exact two-sided p-value."),
      holm_p_value: fraction.optional().describe('Holm-adjusted over every compared case.'),
      outcome: z.enum(['win', 'loss', 'tie']).optional(),
    }),
  ),
});

const RunAgentSchema = z.looseObject({
  name: z.string(),
  file: z.string(),
  model: z.string(),
  provider: z.string(),
  config_hash: sha256
    .nullable()
    .describe('sha256 of `config` (canonical JSON); null in reports of format 1 (read as version 2).'),
  config: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe('agent.yaml as loaded, without test cases, secrets redacted, paths relative to its folder.'),
  instructions_hash: sha256.nullable().describe('sha256 of the instructions text.'),
  suite_hash: sha256
    .optional()
    .describe(
      'sha256 of the suite (test cases with their metrics and thresholds, evaluations.metrics), canonical JSON; absent in older reports.',
    ),
  instructions_version: z
    .string()
    .optional()
    .describe("The `version:` of the instructions file's front matter, when it has one."),
});

const RunEnvironmentSchema = z.looseObject({
  git: z
    .looseObject({ commit: z.string(), branch: z.string().nullable(), dirty: z.boolean() })
    .nullable()
    .describe("The agent folder's git HEAD, branch and whether tracked files changed; null outside git."),
  versions: z.looseObject({
    holodeck: z.string(),
    node: z.string(),
    sdk: z.looseObject({ name: z.string(), version: z.string() }).nullable(),
    cli: z.string().nullable(),
  }),
});

/** The zod schema of a RunReport (what `--format json` writes and `.holodeck/runs/` keeps). */
export const RunReportSchema = z
  .looseObject({
    schema_version: z.literal(RUN_REPORT_SCHEMA_VERSION),
    run_id: z.string().min(1),
    started_at: timestamp,
    finished_at: timestamp,
    agent: RunAgentSchema,
    environment: RunEnvironmentSchema.nullable().describe(
      'Git state and versions when the run started; null in reports of format 1.',
    ),
    suite_cases: z
      .array(z.string())
      .nullable()
      .describe('Every case name of the suite, selected or not; null in reports of format 1.'),
    options: z.looseObject({
      concurrency: z.int().positive(),
      repeat: z.union([z.int().positive(), z.literal('auto')]).optional(),
      isolation: z.enum(['process', 'session']),
      filter: z.string().optional(),
      tags: z.array(z.string()).optional(),
      shard: z.string().optional(),
      cases: z.array(z.string()).optional().describe('--case names.'),
      sample: z.int().positive().optional().describe('--sample: the number of cases drawn.'),
      sample_seed: z.int().nonnegative().optional().describe('The seed of --sample (--sample-seed).'),
      limit: z.int().positive().optional().describe('--limit: the most cases run.'),
      allow_side_effects: z.boolean(),
      max_processes: z.int().positive().optional(),
    }),
    interrupted: z
      .boolean()
      .optional()
      .describe('True when SIGINT or SIGTERM stopped the run before every case had run.'),
    budget: z
      .looseObject({
        max_cost_usd: z.number().nonnegative(),
        spent_usd: z.number().nonnegative(),
        reached: z.boolean(),
      })
      .optional()
      .describe(
        '--max-cost: the budget, the known spend, and whether it stopped the run (then interrupted).',
      ),
    in_progress: z
      .looseObject({ planned_cases: count })
      .optional()
      .describe('Present while the run is still going: the record holds the cases finished so far.'),
    regraded_from: z
      .string()
      .min(1)
      .optional()
      .describe('`holodeck test regrade`: the id of the run whose transcripts this run graded again.'),
    continued_from: z
      .looseObject({
        run_id: z.string().min(1),
        mode: z.enum(['retry-errored', 'resume']),
        cases: z.array(z.string()),
      })
      .optional()
      .describe(
        '--retry-errored / --resume: the saved run this run continues; the cases named ran again, the others are copied from it.',
      ),
    summary: RunSummarySchema,
    cases: z.array(CaseReportSchema),
    comparison: ComparisonSchema.optional().describe(
      'With --baseline: the comparison over the cases both runs finished (JSON reports written with -o only).',
    ),
    matrix: z
      .looseObject({
        variants: z.array(
          z.looseObject({
            name: z.string().min(1),
            overrides: z
              .record(z.string(), z.unknown())
              .describe('The fields it overrides, as written (redacted).'),
            model: z.string(),
            provider: z.string(),
            backend: z.string().describe('claude (Claude Agent SDK) or ai-sdk.'),
            config_hash: sha256.nullable(),
            instructions_hash: sha256.nullable(),
            summary: RunSummarySchema.describe("This variant's totals, over its own attempts."),
            interrupted: z.boolean().optional(),
          }),
        ),
      })
      .optional()
      .describe(
        'A matrix run: its variants. Then every case carries its variant, and summary sums over all of them.',
      ),
  })
  .meta({
    title: 'HoloDeck run report',
    description: 'The report of one `holodeck test` run. See docs/report-format.md.',
  });

/** Parses the text of a JSON run report; throws RunReportError naming `source` and what is wrong. */
export function parseRunReport(json: string, source: string): RunReport {
  if (json.trim() === '') throw invalid(source, 'the file is empty.');
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (error) {
    const detail = errorMessage(error);
    throw new RunReportError(source, `Invalid run report ${source}: not valid JSON (${detail}).`, {
      cause: error,
    });
  }
  return validateRunReport(data, source);
}

/** Validates parsed JSON as a RunReport; throws RunReportError naming `source` and what is wrong. */
export function validateRunReport(data: unknown, source: string): RunReport {
  if (!isRecord(data)) {
    throw invalid(
      source,
      `expected a JSON object, got ${Array.isArray(data) ? 'an array' : JSON.stringify(data)}.`,
    );
  }
  checkSchemaVersion(data.schema_version, source);
  const result = RunReportSchema.safeParse(data.schema_version === 1 ? upgradeFromVersion1(data) : data);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `  - ${describeReportIssue(issue, data)}`);
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  throw invalid(source, `${count}:\n${problems.join('\n')}`);
}

/**
 * Format 1 lacks what version 2 records about the run (environment, agent configuration and
 * hashes, suite cases): read as version 2 with those set to null ("not recorded").
 */
function upgradeFromVersion1(data: Record<string, unknown>): Record<string, unknown> {
  const agent = isRecord(data.agent)
    ? { ...data.agent, config_hash: null, config: null, instructions_hash: null }
    : data.agent;
  return { ...data, schema_version: RUN_REPORT_SCHEMA_VERSION, agent, environment: null, suite_cases: null };
}

const READABLE_VERSIONS: readonly unknown[] = [1, RUN_REPORT_SCHEMA_VERSION];

function checkSchemaVersion(found: unknown, source: string): void {
  if (READABLE_VERSIONS.includes(found)) return;
  if (found === undefined) {
    throw invalid(
      source,
      'it has no schema_version, so it is not a holodeck run report (write one with `holodeck test --format json`).',
    );
  }
  const supported = `this holodeck reads schema_version 1 and ${RUN_REPORT_SCHEMA_VERSION} only`;
  const newer = typeof found === 'number' && found > RUN_REPORT_SCHEMA_VERSION;
  const hint = newer ? '; upgrade holodeck to read it' : '';
  throw invalid(source, `found schema_version ${JSON.stringify(found)}, but ${supported}${hint}.`);
}

function invalid(source: string, problem: string): RunReportError {
  return new RunReportError(source, `Invalid run report ${source}: ${problem}`);
}

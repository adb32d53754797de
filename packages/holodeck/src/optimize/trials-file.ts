import { appendFile, mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { UsageError } from '../errors.js';

/** Version of the lines of trials.jsonl; a reader refuses others. */
export const TRIALS_SCHEMA_VERSION = 1;

const IntervalSchema = z.object({
  estimate: z.number(),
  lower: z.number(),
  upper: z.number(),
  confidence: z.number(),
  method: z.string(),
});

const ChangesSchema = z.strictObject({
  instructions: z.string().optional(),
  temperature: z.number().optional(),
  max_turns: z.number().optional(),
  model: z.string().optional(),
  tool_descriptions: z.record(z.string(), z.string()).optional(),
});

const CandidateSchema = z.strictObject({
  id: z.string(),
  changes: ChangesSchema,
  origin: z.enum(['baseline', 'proposer', 'temperature', 'max_turns', 'model', 'tool_descriptions']),
  parent: z.string().optional(),
  rationale: z.string().optional(),
});

const EvaluationSchema = z.object({
  split: z.enum(['train', 'holdout']),
  run_id: z.string(),
  cases: z.array(
    z.object({
      name: z.string(),
      passes: z.number(),
      attempts: z.number(),
      passed: z.boolean(),
      errored: z.boolean(),
    }),
  ),
  pass_rate: z.number(),
  cost_usd: z.number().nullable(),
  judge_cost_usd: z.number().nullable().optional(),
  kills: z.number(),
  holds: z.number(),
  unrecorded: z.number(),
  interrupted: z.boolean(),
  failures: z.array(
    z.object({ case: z.string(), input: z.string(), response: z.string(), reasons: z.array(z.string()) }),
  ),
});

const StartSchema = z.object({
  type: z.literal('start'),
  schema_version: z.literal(TRIALS_SCHEMA_VERSION),
  optimize_id: z.string(),
  started_at: z.string(),
  agent: z.object({ name: z.string(), file: z.string(), config_hash: z.string() }),
  /** The instructions of agent.yaml as written (the viewer diffs candidates against them). */
  baseline_instructions: z.string().optional(),
  split: z.object({
    train: z.array(z.string()),
    holdout: z.array(z.string()),
    seed: z.number(),
    fraction: z.number(),
  }),
  settings: z.object({
    axes: z.array(z.string()),
    repeats: z.number(),
    confidence: z.number(),
    max_trials: z.number(),
    max_cost_usd: z.number().nullable(),
    max_time_seconds: z.number().nullable(),
    replay: z.boolean(),
  }),
});

const TrialSchema = z.object({
  type: z.literal('trial'),
  trial: z.number(),
  move: z.number(),
  started_at: z.string(),
  duration_ms: z.number(),
  candidate: CandidateSchema,
  evaluation: EvaluationSchema,
  /** What proposing this candidate cost (USD); absent for candidates no model proposed. */
  proposer_cost_usd: z.number().optional(),
  decision: z
    .object({ accepted: z.boolean(), code: z.string(), message: z.string(), improvement: IntervalSchema })
    .nullable(),
  best: z.string(),
});

/** A proposal that produced no candidate (the proposer failed, had no recording, or repeated itself). */
const SkipSchema = z.object({
  type: z.literal('skip'),
  move: z.number(),
  at: z.string(),
  reason: z.string(),
  /** What the failed or repeated proposal cost (USD), counted in --max-cost. */
  proposer_cost_usd: z.number().optional(),
});

const HoldoutSchema = z.object({
  type: z.literal('holdout'),
  winner: z.string(),
  baseline: EvaluationSchema,
  candidate: EvaluationSchema,
  improvement: IntervalSchema,
  agrees: z.boolean(),
  message: z.string(),
});

const FinishSchema = z.object({
  type: z.literal('finish'),
  finished_at: z.string(),
  stopped: z.enum(['exhausted', 'max-trials', 'max-cost', 'max-time', 'interrupted']),
  winner: z.string().nullable(),
  optimized_file: z.string().nullable(),
});

/** One line of trials.jsonl. */
export const TrialsLineSchema = z.discriminatedUnion('type', [
  StartSchema,
  TrialSchema,
  SkipSchema,
  HoldoutSchema,
  FinishSchema,
]);
export type TrialsLine = z.infer<typeof TrialsLineSchema>;
export type StartLine = z.infer<typeof StartSchema>;
export type SkipLine = z.infer<typeof SkipSchema>;
export type TrialLine = z.infer<typeof TrialSchema>;
export type HoldoutLine = z.infer<typeof HoldoutSchema>;
export type FinishLine = z.infer<typeof FinishSchema>;

/** Where `holodeck test optimize` keeps its runs: `<agent folder>/.holodeck/optimize/<id>/`. */
export function optimizeDirectory(agentFolder: string): string {
  return path.join(agentFolder, '.holodeck', 'optimize');
}

/** Appends one line (each trial is saved as soon as it is judged). */
export async function appendTrialsLine(file: string, line: TrialsLine): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await appendFile(file, `${JSON.stringify(line)}\n`);
}

/**
 * Reads a trials.jsonl, every line checked. A last line cut short (the process died while
 * writing it) is dropped; any other bad line is an error naming the file and line.
 */
export async function readTrialsFile(file: string): Promise<TrialsLine[]> {
  const text = await readFile(file, 'utf8');
  const rows = text.split('\n');
  const lines: TrialsLine[] = [];
  for (const [index, row] of rows.entries()) {
    if (!row.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(row);
    } catch {
      // The last line without its newline: cut short by a process that died while writing it.
      if (index === rows.length - 1 && !text.endsWith('\n')) continue;
      throw new UsageError(
        '--resume',
        `${file}:${index + 1} is not JSON`,
        'start a new optimization without --resume',
      );
    }
    const parsed = TrialsLineSchema.safeParse(value);
    if (!parsed.success)
      throw new UsageError(
        '--resume',
        `${file}:${index + 1} is not a trials line of this HoloDeck (${parsed.error.issues[0]?.message ?? 'invalid'})`,
        'start a new optimization without --resume',
      );
    lines.push(parsed.data);
  }
  if (lines[0]?.type !== 'start')
    throw new UsageError(
      '--resume',
      `${file} does not start with a start line`,
      'start a new optimization without --resume',
    );
  return lines;
}

/** One optimization as the viewer and --resume find it. */
export interface StoredOptimization {
  id: string;
  file: string;
  lines: TrialsLine[];
}

/** Every readable optimization of an agent folder, newest first (ids start with a timestamp). */
export async function listOptimizations(agentFolder: string): Promise<StoredOptimization[]> {
  const root = optimizeDirectory(agentFolder);
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  const found: StoredOptimization[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const file = path.join(root, entry.name, 'trials.jsonl');
    const lines = await readTrialsFile(file).catch(() => undefined);
    if (lines) found.push({ id: entry.name, file, lines });
  }
  return found.sort((a, b) => b.id.localeCompare(a.id));
}

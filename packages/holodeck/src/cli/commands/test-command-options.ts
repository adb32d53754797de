import { access, constants, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import type { RecordingFlags } from './recording-options.js';
import { parseMaxCost, parseRepeat, type VerdictCommandOptions } from './verdict-options.js';

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
export async function prepareOutput(output: string): Promise<string> {
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

/** The selection and run settings of `holodeck test`, every flag checked (a bad one is a UsageError). */
export function parseTestSelection(
  options: TestCommandOptions,
  parseShard: (text: string) => { index: number; count: number },
) {
  return {
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
}

/** The options of `holodeck test` itself (its subcommands add their own). */
export function addTestRunOptions(test: Command): Command {
  return test
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
    .option('--force-ingest', 'rebuild the retrieval tool indexes before the run', false);
}

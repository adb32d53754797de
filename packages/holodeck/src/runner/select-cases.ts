import { suggestionHint } from '../config/index.js';
import { UsageError } from '../errors.js';
import type { PreparedCase } from './prepare-suite.js';

/** Which cases to run: `--filter`, `--tag`, `--case`, `--shard i/n`, `--sample k`, `--limit n`. */
export interface CaseSelection {
  /** `--case NAME` (repeatable): exactly these cases; a name the suite lacks is a usage error. */
  caseNames?: readonly string[];
  /** `--sample K`: a random K of the selected cases, the same for the same `sampleSeed`. */
  sample?: number;
  /** Seed of `--sample` (`--sample-seed`); default 0. */
  sampleSeed?: number;
  /** `--limit N`: the first N selected cases, in the order they are written. */
  limit?: number;
  /** A name pattern: `*` matches any run of characters; without `*`, any name containing it. */
  filter?: string;
  /** Run cases carrying at least one of these tags. */
  tags?: readonly string[];
  /** `{index: i, count: n}` from `--shard i/n` (1-based). */
  shard?: { index: number; count: number };
}

/** Parses `--shard i/n`. */
export function parseShard(text: string): { index: number; count: number } {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) {
    throw new UsageError('--shard', `invalid shard "${text}"`, 'use i/n with 1 ≤ i ≤ n, e.g. --shard 2/4');
  }
  return { index, count };
}

function nameMatcher(filter: string): (name: string) => boolean {
  if (!filter.includes('*')) return (name) => name.includes(filter);
  const escaped = filter.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = new RegExp(`^${escaped.join('.*')}$`);
  return (name) => pattern.test(name);
}

/** A stable 32-bit hash of a case name (FNV-1a over its UTF-8 bytes). */
export function nameHash(name: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(name, 'utf8')) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash;
}

/**
 * The cases of shard `index` of `count`: the cases ordered by the hash of their name (ties by
 * name), then dealt round-robin, so the shards differ by at most one case, the split does not
 * depend on the order cases are written in, and every machine of a CI matrix computes the same
 * one. A case's repeats stay together (they are one case).
 */
export function shardOf<T extends { config: { name: string } }>(
  cases: readonly T[],
  index: number,
  count: number,
): T[] {
  const order = [...cases].sort(
    (a, b) => nameHash(a.config.name) - nameHash(b.config.name) || a.config.name.localeCompare(b.config.name),
  );
  const kept = new Set(order.filter((_, position) => position % count === index - 1));
  return cases.filter((testCase) => kept.has(testCase));
}

/** A 32-bit PRNG (mulberry32): the same seed, the same sequence, on every machine. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `count` of `cases` chosen at random with `seed` (a partial Fisher-Yates shuffle), kept in the
 * order they are written. The choice depends on the seed and the case names only, not on how the
 * cases are ordered in the files.
 */
export function sampleOf<T extends { config: { name: string } }>(
  cases: readonly T[],
  count: number,
  seed: number,
): T[] {
  const order = [...cases].sort((a, b) => a.config.name.localeCompare(b.config.name));
  const random = seededRandom(seed);
  for (let index = 0; index < Math.min(count, order.length); index++) {
    const pick = index + Math.floor(random() * (order.length - index));
    [order[index], order[pick]] = [order[pick] as T, order[index] as T];
  }
  const kept = new Set(order.slice(0, count));
  return cases.filter((testCase) => kept.has(testCase));
}

/** `--case NAME` naming no case of the suite: a typo, named with the closest case. */
function checkCaseNames(cases: readonly PreparedCase[], names: readonly string[]): void {
  const known = cases.map((testCase) => testCase.config.name);
  for (const name of names)
    if (!known.includes(name))
      throw new UsageError(
        '--case',
        `no test case is named "${name}"`,
        suggestionHint(name, known, 'the cases are'),
      );
}

/** Filters (--filter, --tag, --case), shards (shardOf), samples (sampleOf), then limits. */
export function selectCases(cases: readonly PreparedCase[], selection: CaseSelection): PreparedCase[] {
  const matches = selection.filter ? nameMatcher(selection.filter) : () => true;
  const tags = selection.tags ?? [];
  const names = selection.caseNames ?? [];
  if (names.length) checkCaseNames(cases, names);
  const shard = selection.shard;
  const selected = cases.filter(
    (testCase) =>
      matches(testCase.config.name) &&
      (!names.length || names.includes(testCase.config.name)) &&
      (!tags.length || (testCase.config.tags ?? []).some((tag) => tags.includes(tag))),
  );
  const sharded = shard ? shardOf(selected, shard.index, shard.count) : selected;
  const sampled =
    selection.sample !== undefined ? sampleOf(sharded, selection.sample, selection.sampleSeed ?? 0) : sharded;
  return selection.limit !== undefined ? sampled.slice(0, selection.limit) : sampled;
}

import { seededRandom } from 'verdict-stats';

/** A case as the split sees it: its name and tags. */
export interface SplitInput {
  name: string;
  tags?: readonly string[] | undefined;
}

/** The train and holdout cases, in suite order. */
export interface CaseSplit {
  train: string[];
  holdout: string[];
  seed: number;
  /** The share asked for (`optimize.holdout`). */
  fraction: number;
}

/** The stratum of a case: its sorted tag set (untagged cases form one stratum). */
function stratumOf(testCase: SplitInput): string {
  return [...(testCase.tags ?? [])].sort().join('\u0000');
}

/**
 * Splits the cases into train and holdout, stratified by tag set and fixed by `seed`: within each
 * stratum the cases are shuffled (Fisher-Yates on seededRandom) and round(n × fraction) of them
 * held out, so every kind of case is in both halves when it has enough cases. Train is never empty:
 * when rounding would hold out everything, one case goes back to train.
 */
export function splitCases(cases: readonly SplitInput[], fraction: number, seed: number): CaseSplit {
  const random = seededRandom(seed);
  const strata = new Map<string, string[]>();
  for (const testCase of cases) {
    const key = stratumOf(testCase);
    strata.set(key, [...(strata.get(key) ?? []), testCase.name]);
  }
  const held = new Set<string>();
  for (const key of [...strata.keys()].sort()) {
    const names = [...(strata.get(key) ?? [])];
    for (let index = names.length - 1; index > 0; index -= 1) {
      const other = Math.floor(random() * (index + 1));
      [names[index], names[other]] = [names[other] as string, names[index] as string];
    }
    const count = Math.round(names.length * fraction);
    for (const name of names.slice(0, count)) held.add(name);
  }
  if (held.size === cases.length && cases.length > 0) {
    const first = cases.find((testCase) => held.has(testCase.name));
    if (first) held.delete(first.name);
  }
  return {
    train: cases.filter((testCase) => !held.has(testCase.name)).map((testCase) => testCase.name),
    holdout: cases.filter((testCase) => held.has(testCase.name)).map((testCase) => testCase.name),
    seed,
    fraction,
  };
}

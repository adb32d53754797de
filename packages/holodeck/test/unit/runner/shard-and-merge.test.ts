import { describe, expect, it } from 'vitest';
import { mergeRuns } from '../../../src/runner/report/merge-runs.js';
import { shardOf } from '../../../src/runner/select-cases.js';
import { bleu, failingCase, passingCase, runReport } from './report/report-builder.js';

const named = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ config: { name: `case-${index}` } }));

describe('--shard k/n', () => {
  it('is balanced to one case, disjoint, complete, and independent of the order cases are written in', () => {
    const cases = named(103);
    const shards = [1, 2, 3, 4].map((index) => shardOf(cases, index, 4));
    expect(shards.map((shard) => shard.length).sort()).toEqual([25, 26, 26, 26]);
    const all = shards.flat().map((entry) => entry.config.name);
    expect(new Set(all).size).toBe(103);
    const reversed = [...cases].reverse();
    for (const index of [1, 2, 3, 4])
      expect(new Set(shardOf(reversed, index, 4).map((entry) => entry.config.name))).toEqual(
        new Set(shards[index - 1]?.map((entry) => entry.config.name)),
      );
  });
});

describe('holodeck test merge', () => {
  const suite = ['a', 'b', 'c', 'd'];
  const shard = (names: string[], id: string) =>
    runReport(
      names.map((name) => (name === 'c' ? failingCase(name, [bleu(0.1)]) : passingCase(name))),
      {
        run_id: id,
        suite_cases: suite,
        options: { concurrency: 2, isolation: 'process', allow_side_effects: false, shard: '1/2' },
      },
    );

  it('combines the shards in suite order and recomputes the summary', () => {
    const merged = mergeRuns(
      [shard(['b', 'd'], 's2'), shard(['a', 'c'], 's1')],
      ['s2.json', 's1.json'],
      'merged-1',
    );
    expect(merged.cases.map((entry) => entry.name)).toEqual(suite);
    expect(merged.summary).toMatchObject({ total: 4, passed: 3, failed: 1 });
    expect(merged.options.shard).toBeUndefined();
    expect(merged.run_id).toBe('merged-1');
  });

  it('refuses a case twice, a missing case, and runs of another agent or suite', () => {
    expect(() =>
      mergeRuns([shard(['a', 'b'], 's1'), shard(['b', 'c', 'd'], 's2')], ['s1.json', 's2.json'], 'm'),
    ).toThrow('Cannot merge: case "b" is in both s1.json and s2.json. Merge each shard once.');
    expect(() =>
      mergeRuns([shard(['a', 'b'], 's1'), shard(['c'], 's2')], ['s1.json', 's2.json'], 'm'),
    ).toThrow("Cannot merge: 1 case(s) of the suite are in no run: d. Pass every shard's run file.");
    const other = shard(['c', 'd'], 's2');
    other.agent = { ...other.agent, suite_hash: `sha256:${'9'.repeat(64)}` };
    expect(() => mergeRuns([shard(['a', 'b'], 's1'), other], ['s1.json', 's2.json'], 'm')).toThrow(
      `Cannot merge: s2.json has another suite hash than s1.json (sha256:${'9'.repeat(64)} against none): the shards ran different agents or suites. Rerun them from the same commit.`,
    );
    expect(() => mergeRuns([], [], 'm')).toThrow('Nothing to merge: pass the JSON run files of the shards.');
  });
});

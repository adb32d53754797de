import path from 'node:path';
import { expect, it } from 'vitest';
import { checkLayers } from '../../src/import-graph/check-layers.js';

const root = '/src';
const edge = (from: string, to: string) => ({
  from: path.join(root, from),
  specifier: `./${to}`,
  resolved: path.join(root, to),
});

it('allows imports downward and inside a folder, refuses upward and sideways ones', () => {
  const report = checkLayers(
    root,
    [
      edge('cli/main.ts', 'runner/run.ts'),
      edge('runner/run.ts', 'runner/report.ts'),
      edge('runner/run.ts', 'config/load.ts'),
      edge('config/load.ts', 'runner/run.ts'),
      edge('runner/run.ts', 'chat/view.ts'),
    ],
    [['cli'], ['runner', 'chat'], ['config']],
  );
  expect([...report.violations]).toEqual([
    ['config -> runner', ['config/load.ts']],
    ['runner -> chat', ['runner/run.ts']],
  ]);
  expect(report.unplaced).toEqual([]);
  expect(report.pairs.get('cli -> runner')).toBe(1);
});

it('names folders that no layer places', () => {
  const report = checkLayers(root, [edge('serve/app.ts', 'config/load.ts')], [['config']]);
  expect(report.unplaced).toEqual(['serve']);
});

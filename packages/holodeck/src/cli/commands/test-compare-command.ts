import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import type { CommandContext } from '../command-context.js';
import { ExitCode, type ExitCodeValue } from '../exit-codes.js';
import { agentFolder } from './test-approve-command.js';

export interface TestCompareOptions {
  variants?: string;
  json: boolean;
}

/** `--variants a,b`: two different variant names, the baseline first. */
function parseVariantPair(value: string | undefined): [string, string] {
  const names = (value ?? '').split(',').map((name) => name.trim());
  const [baseline, current] = names;
  if (names.length !== 2 || !baseline || !current)
    throw new UsageError(
      '--variants',
      value === undefined ? 'is required' : `needs two variant names separated by a comma, got "${value}"`,
      'e.g. --variants claude,gpt (the first is the baseline)',
    );
  if (baseline === current)
    throw new UsageError('--variants', `names "${baseline}" twice`, 'compare two different variants');
  return [baseline, current];
}

/**
 * `holodeck test compare <run> [agent.yaml] --variants a,b`: two variants of a saved matrix run
 * compared with the statistics `--baseline` uses (cases paired by name; `a` is the baseline).
 * Prints the comparison, or its JSON (the `comparison` of a JSON report) with `--json`.
 */
export async function testCompareCommand(
  run: string,
  file: string | undefined,
  options: TestCompareOptions,
): Promise<ExitCodeValue> {
  const [baseline, current] = parseVariantPair(options.variants);
  const folder = await agentFolder(file ?? 'agent.yaml');
  const [{ loadRun, runsDirectory }, { compareVariants, renderVariantComparison }, { findVariant }, style] =
    await Promise.all([
      import('../../runner/report/run-store.js'),
      import('../../runner/matrix/compare-variants.js'),
      import('../../runner/report/variant-run.js'),
      import('../../runner/report/report-style.js'),
    ]);
  const report = await loadRun(run, runsDirectory(folder));
  for (const name of [baseline, current]) {
    try {
      findVariant(report, name);
    } catch (error) {
      throw new UsageError(
        '--variants',
        error instanceof Error ? error.message : String(error),
        report.matrix ? undefined : 'compare two plain runs with holodeck test --baseline',
      );
    }
  }
  const comparison = compareVariants(report, baseline, current);
  if (options.json) {
    const { comparisonJson } = await import('../../runner/report/comparison-json.js');
    process.stdout.write(`${JSON.stringify(comparisonJson(comparison), null, 2)}\n`);
    return ExitCode.ok;
  }
  const { color } = style.terminalCapabilities(process.stdout);
  process.stdout.write(renderVariantComparison(comparison, baseline, current, { color }));
  return ExitCode.ok;
}

/** Adds `compare` under `holodeck test`. */
export function registerTestCompareCommand(test: Command, context: CommandContext) {
  test
    .command('compare')
    .description(
      'compare two variants of a saved matrix run, case by case, with the statistics of --baseline',
    )
    .argument('<run>', 'the matrix run: its id, a report file, or "latest"')
    .argument('[agent.yaml]', 'the agent whose run it is, or its folder (default: ./agent.yaml)')
    .option('--variants <a,b>', 'the two variants, the baseline first')
    .option('--json', 'print the comparison as JSON', false)
    .action((run: string, file: string | undefined, options: TestCompareOptions) =>
      context.run(testCompareCommand(run, file, options)),
    );
}

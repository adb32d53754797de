import path from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import type { CommandContext } from '../command-context.js';
import { ExitCode, type ExitCodeValue } from '../exit-codes.js';
import type { Style } from '../terminal-style.js';
import { parseRecordingFlags } from './recording-options.js';

export interface TestRegradeOptions {
  metrics?: string;
  replay?: string | boolean;
  save: boolean;
}

/**
 * `holodeck test regrade <run-id> [agent.yaml]`: grades a saved run's transcripts again with the
 * suite's current metrics (judges live, or answered from the recording with --replay) without
 * running the agent, and saves the new run with a link to the one it regraded.
 */
export async function testRegradeCommand(
  runId: string,
  file: string,
  options: TestRegradeOptions,
  style: Style,
): Promise<ExitCodeValue> {
  const metrics = options.metrics
    ?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (options.metrics !== undefined && !metrics?.length)
    throw new UsageError('--metrics', 'needs metric names, e.g. --metrics helpful,faithfulness');
  const recording = parseRecordingFlags(options.replay !== undefined ? { replay: options.replay } : {});
  const [{ loadAgent }, { regradeRun }, report] = await Promise.all([
    import('../../load-agent.js'),
    import('../../runner/regrade-run.js'),
    import('../../runner/report/index.js'),
  ]);
  const agent = await loadAgent(file);
  const runsDir = report.runsDirectory(agent.directory);
  const saved = await report.loadRun(runId, runsDir);
  const notice = (message: string) => process.stderr.write(`${style.yellow('note')} ${message}\n`);
  const { recorder } = await recording.open(agent, notice);
  const result = await regradeRun(agent, saved, {
    ...(metrics ? { metrics } : {}),
    ...(recorder ? { recorder } : {}),
    onNotice: notice,
  });
  const terminal = report.terminalCapabilities(process.stderr);
  process.stdout.write(`${report.renderSummary(result, { color: terminal.color })}\n`);
  const comparison = report.compareRuns(result, saved, { suiteCases: result.suite_cases ?? [] });
  process.stdout.write(`${report.renderComparison(comparison, { color: terminal.color })}\n`);
  if (options.save) {
    const where = await report.saveRun(result, runsDir);
    process.stderr.write(
      `${style.dim(`run saved: ${path.relative(process.cwd(), where) || where} (id ${result.run_id}, regraded from ${saved.run_id})`)}\n`,
    );
  }
  return result.summary.passed === result.summary.total ? ExitCode.ok : ExitCode.testsFailed;
}

export function registerTestRegradeCommand(test: Command, context: CommandContext) {
  test
    .command('regrade')
    .description(
      "grade a saved run's transcripts again with the suite's current metrics, without running the agent",
    )
    .argument('<run>', 'the saved run: its id, a report file, or "latest"')
    .argument('[file]', 'path to agent.yaml', 'agent.yaml')
    .option(
      '--metrics <names>',
      'only these metrics (comma-separated names); the others keep their saved outcomes',
    )
    .option(
      '--replay [dir]',
      'answer the judges from the recording (default .holodeck/recordings/ next to agent.yaml)',
    )
    .option('--no-save', 'do not save the regraded run under .holodeck/runs/')
    // `test` has a --replay of its own, which commander gives the parent: read both.
    .action((runId: string, file: string, _options: TestRegradeOptions, command: Command) =>
      context.run(
        testRegradeCommand(runId, file, command.optsWithGlobals<TestRegradeOptions>(), context.style),
      ),
    );
}

import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import type { CommandContext } from '../command-context.js';
import { ExitCode, type ExitCodeValue } from '../exit-codes.js';
import type { Style } from '../terminal-style.js';

/** The agent's folder: agent.yaml's, or the folder itself when one is given. */
export async function agentFolder(file: string): Promise<string> {
  const target = path.resolve(file);
  const info = await stat(target).catch(() => undefined);
  if (!info)
    throw new UsageError(
      '[agent.yaml]',
      `${file} does not exist`,
      'pass the agent.yaml whose run to approve (its runs are saved in its folder under .holodeck/runs/)',
    );
  return info.isDirectory() ? target : path.dirname(target);
}

/**
 * `holodeck test approve <run> [agent.yaml]`: records a saved run (an id, a report file, or
 * `latest`) as the agent's approved baseline, `.holodeck/approved-baseline.json`, a small file of
 * per-case results meant to be committed. A run with errored, stopped or missing cases is refused.
 */
export async function testApproveCommand(
  run: string,
  file: string | undefined,
  style: Style,
): Promise<ExitCodeValue> {
  const folder = await agentFolder(file ?? 'agent.yaml');
  const [{ loadRun, runsDirectory }, { approveRun, writeApprovedBaseline }] = await Promise.all([
    import('../../runner/report/run-store.js'),
    import('../../runner/gate/approved-baseline.js'),
  ]);
  const report = await loadRun(run, runsDirectory(folder));
  if (report.matrix)
    throw new UsageError(
      '<run>',
      `run ${report.run_id} is a matrix run (${report.matrix.variants.length} variants), and a baseline holds one agent's results`,
      'approve a run of the agent without its matrix',
    );
  const written = await writeApprovedBaseline(folder, approveRun(report, run));
  const shown = path.relative(process.cwd(), written) || written;
  process.stdout.write(`approved run ${report.run_id} as the baseline: ${shown}\n`);
  process.stderr.write(
    `${style.dim(`commit ${shown}; \`holodeck test --baseline approved\` and the gate compare with it`)}\n`,
  );
  return ExitCode.ok;
}

/** Adds `approve` under `holodeck test`. */
export function registerTestApproveCommand(test: Command, context: CommandContext) {
  test
    .command('approve')
    .description(
      'record a saved run as the approved baseline (.holodeck/approved-baseline.json, meant to be committed)',
    )
    .argument('<run>', 'the run: its id, a report file, or "latest" (the latest complete run)')
    .argument('[agent.yaml]', 'the agent whose run it is, or its folder (default: ./agent.yaml)')
    .action((run: string, file: string | undefined) =>
      context.run(testApproveCommand(run, file, context.style)),
    );
}

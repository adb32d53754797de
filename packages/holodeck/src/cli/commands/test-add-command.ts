import path from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import type { CommandContext } from '../command-context.js';
import { ExitCode, type ExitCodeValue } from '../exit-codes.js';
import type { Style } from '../terminal-style.js';
import { DEFAULT_RECORDING_DIR } from './recording-options.js';

export interface TestAddOptions {
  fromRun?: string;
  case?: string;
  name?: string;
  withArgs: boolean;
  asCounterexample: boolean;
  recordings?: string;
  label?: string;
  metric?: string;
  comment?: string;
}

/**
 * `holodeck test add <agent.yaml> --from-run <run> --case <name>`: appends a test case made from a
 * saved run's case to the suite (comments kept), validates the result, and copies the case's
 * recording so the new case replays at once. With `--label pass|fail`, appends the case's answer
 * as a labelled example to a judge metric's calibration file instead.
 */
export async function testAddCommand(
  file: string,
  options: TestAddOptions,
  style: Style,
): Promise<ExitCodeValue> {
  if (options.fromRun === undefined)
    throw new UsageError(
      '--from-run',
      'is required',
      'holodeck test add agent.yaml --from-run latest --case <name>',
    );
  if (options.case === undefined)
    throw new UsageError('--case', 'is required with --from-run', 'name the case of that run to copy');
  const [
    { loadAgent },
    report,
    { caseFromRun, findRunCase },
    { appendTestCase },
    { copyCaseRecording },
    redact,
  ] = await Promise.all([
    import('../../load-agent.js'),
    import('../../runner/report/index.js'),
    import('../../runner/case-from-run.js'),
    import('../../runner/append-test-case.js'),
    import('../../recording/copy-case-recording.js'),
    import('../../runner/report/redact-agent-config.js'),
  ]);
  if (options.label !== undefined && options.label !== 'pass' && options.label !== 'fail')
    throw new UsageError('--label', `is pass or fail, got "${options.label}"`);
  if (options.label === undefined && (options.metric !== undefined || options.comment !== undefined))
    throw new UsageError(
      options.metric !== undefined ? '--metric' : '--comment',
      'goes with --label pass|fail',
    );
  const agent = await loadAgent(file);
  const run = await report.loadRun(options.fromRun, report.runsDirectory(agent.directory));
  const source = findRunCase(run, options.case);
  if (options.label !== undefined) {
    const { appendLabel } = await import('../../runner/calibration/append-label.js');
    const labelled = await appendLabel(agent, {
      run,
      source,
      metric: options.metric,
      label: options.label,
      comment: options.comment,
      secrets: redact.credentialValues({ ...process.env, ...agent.env }),
    });
    process.stderr.write(
      `${style.dim(`labelled case "${source.name}" of run ${run.run_id} ${options.label} for judge "${labelled.metric}" in ${path.relative(process.cwd(), labelled.file) || labelled.file}`)}\n`,
    );
    return ExitCode.ok;
  }
  const name = options.name ?? `${source.name} (from run ${run.run_id})`;
  if ((agent.config.test_cases ?? []).some((entry) => entry.name === name))
    throw new UsageError(
      '--name',
      `the suite already has a case named "${name}"`,
      'give the new case another name with --name',
    );
  const testCase = caseFromRun(source, {
    name,
    withArgs: options.withArgs,
    asCounterexample: options.asCounterexample,
    secrets: redact.credentialValues({ ...process.env, ...agent.env }),
  });
  const written = await appendTestCase(agent, testCase);
  process.stderr.write(
    `${style.dim(`added case "${name}" to ${path.relative(process.cwd(), written) || written}`)}\n`,
  );
  const recordings = options.recordings
    ? path.resolve(options.recordings)
    : path.join(agent.directory, DEFAULT_RECORDING_DIR);
  const copied = await copyCaseRecording(recordings, source.name, name);
  process.stderr.write(
    `${style.dim(copied ? `its recording: ${path.relative(process.cwd(), copied) || copied} (replay it with --replay)` : `no recording of "${source.name}" in ${recordings}: record the new case with --record`)}\n`,
  );
  return ExitCode.ok;
}

export function registerTestAddCommand(test: Command, context: CommandContext) {
  test
    .command('add')
    .description(
      "append a test case made from a saved run's case to the suite (comments kept), with its recording",
    )
    .argument('<file>', 'path to agent.yaml')
    .option('--from-run <run>', 'the saved run: its id, a report file, or "latest"')
    .option('--case <name>', 'the case of that run to copy')
    .option('--name <name>', 'the new case\'s name (default: "<case> (from run <id>)")')
    .option('--with-args', 'expected_tools with the literal arguments of each call', false)
    .option(
      '--as-counterexample',
      'the answer must differ from this one (a not-contains check) instead of being the ground truth',
      false,
    )
    .option(
      '--label <verdict>',
      "instead of a test case, add the case's answer with this human verdict (pass or fail) to a judge metric's calibration file",
    )
    .option('--metric <name>', 'with --label: the judge metric (needed when several have a calibration file)')
    .option('--comment <text>', 'with --label: why the human labelled it so')
    .option(
      '--recordings <dir>',
      `recording folder to copy the case's recording in (default ${DEFAULT_RECORDING_DIR}/ next to agent.yaml)`,
    )
    .action((file: string, options: TestAddOptions, command: Command) => {
      // `holodeck test` has a --case of its own (repeatable), and commander gives a parent's option
      // to the parent wherever it is written: the name then arrives there.
      const parentCases = (command.parent?.getOptionValue('case') as string[] | undefined) ?? [];
      const name = options.case ?? parentCases.at(-1);
      return context.run(
        testAddCommand(file, { ...options, ...(name !== undefined ? { case: name } : {}) }, context.style),
      );
    });
}

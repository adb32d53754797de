import path from 'node:path';
import type { Command } from 'commander';
import type { LoadedAgent } from '../../config/index.js';
import { UsageError } from '../../errors.js';
import type { CommandContext } from '../command-context.js';
import { ExitCode, type ExitCodeValue } from '../exit-codes.js';
import type { Style } from '../terminal-style.js';
import { DEFAULT_RECORDING_DIR } from './recording-options.js';

export interface TestAddOptions {
  fromRun?: string;
  fromSession?: string;
  case?: string;
  name?: string;
  withArgs: boolean;
  asCounterexample: boolean;
  recordings?: string;
  label?: string;
  metric?: string;
  comment?: string;
}

/** Whether the suite already has a case of this name: the new one needs another. */
function checkNameFree(cases: readonly { name: string }[], name: string): void {
  if (cases.some((entry) => entry.name === name))
    throw new UsageError(
      '--name',
      `the suite already has a case named "${name}"`,
      'give the new case another name with --name',
    );
}

function relative(file: string): string {
  return path.relative(process.cwd(), file) || file;
}

/** Exactly one source, with --case for a run and without it for a session. */
function checkSource(options: TestAddOptions): void {
  if (options.fromRun === undefined && options.fromSession === undefined)
    throw new UsageError(
      '--from-run',
      'or --from-session is required',
      'holodeck test add agent.yaml --from-run latest --case <name>, or --from-session <id> (the id a chat prints when it ends)',
    );
  if (options.fromRun !== undefined && options.fromSession !== undefined)
    throw new UsageError(
      '--from-session',
      'cannot be used with --from-run',
      'give one source for the new case',
    );
  if (options.fromRun !== undefined && options.case === undefined)
    throw new UsageError('--case', 'is required with --from-run', 'name the case of that run to copy');
  if (options.fromSession !== undefined && options.case !== undefined)
    throw new UsageError(
      '--case',
      'goes with --from-run, not --from-session',
      'leave --case out: a session is one case',
    );
}

/** --label (pass or fail) goes with --from-run; --metric and --comment go with --label. */
function checkLabel(options: TestAddOptions): void {
  if (options.fromSession !== undefined && options.label !== undefined)
    throw new UsageError(
      '--label',
      'goes with --from-run, not --from-session',
      'label a case of a saved run',
    );
  if (options.label !== undefined && options.label !== 'pass' && options.label !== 'fail')
    throw new UsageError('--label', `is pass or fail, got "${options.label}"`);
  if (options.label === undefined && (options.metric !== undefined || options.comment !== undefined))
    throw new UsageError(
      options.metric !== undefined ? '--metric' : '--comment',
      'goes with --label pass|fail',
    );
}

/** What a new case is made of: its name, its YAML entry, and how its recording is copied. */
interface NewCase {
  name: string;
  testCase: Record<string, unknown>;
  /** Copies the recording for the case of this name; says where it went (or why none). */
  copyRecording: (name: string) => Promise<string>;
}

/** How a new case is made: the suite's cases (names taken), its options, the recordings folder. */
interface CaseMaking {
  agent: LoadedAgent;
  options: TestAddOptions;
  cases: readonly { name: string }[];
  caseOptions: { withArgs: boolean; asCounterexample: boolean; secrets: string[] };
  recordings: string;
}

/** A case from a saved chat session: its turns, and the chat's recording when it recorded one. */
async function caseFromSessionSource(making: CaseMaking, sessionId: string): Promise<NewCase> {
  const { agent, options, cases, caseOptions, recordings } = making;
  const [{ caseFromSession }, { copyChatRecording }] = await Promise.all([
    import('../../runner/case-from-session.js'),
    import('../../recording/copy-case-recording.js'),
  ]);
  const transcript = await readSessionTranscript(agent, sessionId);
  const name = options.name ?? `from session ${transcript.sessionId.slice(0, 8)}`;
  checkNameFree(cases, name);
  const testCase = caseFromSession(transcript, { name, ...caseOptions });
  const copyRecording = async (newName: string) => {
    const copied = await copyChatRecording(
      recordings,
      newName,
      transcript.turns.map((turn) => turn.input),
    );
    return 'file' in copied
      ? `its recording: ${relative(copied.file)} (replay it with --replay)`
      : `${copied.reason}: record the new case with --record`;
  };
  return { name, testCase, copyRecording };
}

/**
 * A case from a saved run's case, and its recording; undefined when --label appended it to a
 * judge's calibration file instead.
 */
async function caseFromRunSource(making: CaseMaking, style: Style): Promise<NewCase | undefined> {
  const { agent, options, cases, caseOptions, recordings } = making;
  const [report, { caseFromRun, findRunCase }, { copyCaseRecording }] = await Promise.all([
    import('../../runner/report/index.js'),
    import('../../runner/case-from-run.js'),
    import('../../recording/copy-case-recording.js'),
  ]);
  const run = await report.loadRun(options.fromRun as string, report.runsDirectory(agent.directory));
  const source = findRunCase(run, options.case as string);
  if (options.label !== undefined) {
    const { appendLabel } = await import('../../runner/calibration/append-label.js');
    const labelled = await appendLabel(agent, {
      run,
      source,
      metric: options.metric,
      // checkLabel let only pass and fail through.
      label: options.label as 'pass' | 'fail',
      comment: options.comment,
      secrets: caseOptions.secrets,
    });
    process.stderr.write(
      `${style.dim(`labelled case "${source.name}" of run ${run.run_id} ${options.label} for judge "${labelled.metric}" in ${relative(labelled.file)}`)}\n`,
    );
    return undefined;
  }
  const name = options.name ?? `${source.name} (from run ${run.run_id})`;
  checkNameFree(cases, name);
  const testCase = caseFromRun(source, { name, ...caseOptions });
  const copyRecording = async (newName: string) => {
    const copied = await copyCaseRecording(recordings, source.name, newName);
    return copied
      ? `its recording: ${relative(copied)} (replay it with --replay)`
      : `no recording of "${source.name}" in ${recordings}: record the new case with --record`;
  };
  return { name, testCase, copyRecording };
}

/**
 * `holodeck test add <agent.yaml> --from-run <run> --case <name>` or `--from-session <id>`:
 * appends a test case made from a saved run's case, or from a saved chat session, to the suite
 * (comments kept), validates the result, and copies the recording (the case's, or the chat's when
 * it recorded that session) so the new case replays at once. With `--from-run` and
 * `--label pass|fail`, appends the case's answer as a labelled example to a judge metric's
 * calibration file instead.
 */
export async function testAddCommand(
  file: string,
  options: TestAddOptions,
  style: Style,
): Promise<ExitCodeValue> {
  checkSource(options);
  const [{ loadAgent }, { appendTestCase }, redact] = await Promise.all([
    import('../../load-agent.js'),
    import('../../runner/append-test-case.js'),
    import('../../runner/report/redact-agent-config.js'),
  ]);
  checkLabel(options);
  const agent = await loadAgent(file);
  const recordings = options.recordings
    ? path.resolve(options.recordings)
    : path.join(agent.directory, DEFAULT_RECORDING_DIR);
  const caseOptions = {
    withArgs: options.withArgs,
    asCounterexample: options.asCounterexample,
    secrets: redact.credentialValues({ ...process.env, ...agent.env }),
  };
  const making: CaseMaking = {
    agent,
    options,
    cases: agent.config.test_cases ?? [],
    caseOptions,
    recordings,
  };
  const made =
    options.fromSession !== undefined
      ? await caseFromSessionSource(making, options.fromSession)
      : await caseFromRunSource(making, style);
  if (made === undefined) return ExitCode.ok;
  const written = await appendTestCase(agent, made.testCase);
  process.stderr.write(`${style.dim(`added case "${made.name}" to ${relative(written)}`)}\n`);
  process.stderr.write(`${style.dim(await made.copyRecording(made.name))}\n`);
  return ExitCode.ok;
}

/** The saved chat session's transcript, read by the agent's backend; an unknown id is a usage error. */
async function readSessionTranscript(agent: LoadedAgent, sessionId: string) {
  const [{ selectBackend }, { AgentSessionError }] = await Promise.all([
    import('../../backends/select-backend.js'),
    import('../../errors.js'),
  ]);
  const backend = selectBackend(agent);
  try {
    const transcript = await backend.readTranscript(sessionId);
    if (transcript.turns.length === 0)
      throw new UsageError(
        '--from-session',
        `session "${sessionId}" has no user message`,
        'pick a session that talked',
      );
    return transcript;
  } catch (error) {
    if (error instanceof AgentSessionError)
      throw new UsageError(
        '--from-session',
        error.message,
        'use the id a chat printed when it ended ("resume with --resume <id>")',
      );
    throw error;
  } finally {
    await backend.teardown();
  }
}

export function registerTestAddCommand(test: Command, context: CommandContext) {
  test
    .command('add')
    .description(
      "append a test case made from a saved run's case or a saved chat session to the suite (comments kept), with its recording",
    )
    .argument('<file>', 'path to agent.yaml')
    .option('--from-run <run>', 'the saved run: its id, a report file, or "latest"')
    .option('--case <name>', 'the case of that run to copy')
    .option(
      '--from-session <id>',
      'a saved chat session (the id a chat prints when it ends): its turns, tools and last answer',
    )
    .option(
      '--name <name>',
      'the new case\'s name (default: "<case> (from run <id>)", or "from session <id prefix>")',
    )
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
      `recording folder to copy the case's (or the chat's) recording in (default ${DEFAULT_RECORDING_DIR}/ next to agent.yaml)`,
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

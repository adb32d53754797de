import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import type { LoadedAgent } from '../../config/index.js';
import { UsageError } from '../../errors.js';
import type { Recorder } from '../../recording/recorder.js';

/** The recording flags of `holodeck test` and `holodeck chat`, as commander parses them. */
export interface RecordingFlags {
  record?: string | boolean;
  replay?: string | boolean;
  recordMissing?: boolean;
  reRecord?: boolean;
  replayTools?: boolean;
}

/** The recording folder when none is given, next to agent.yaml (meant to be committed). */
export const DEFAULT_RECORDING_DIR = path.join('.holodeck', 'recordings');

/** Adds --record, --replay, --record-missing, --re-record and --replay-tools to a command. */
export function addRecordingOptions(command: Command): Command {
  return command
    .option(
      '--record [dir]',
      `run live and record every model, judge and embeddings request with its response (default folder: ${DEFAULT_RECORDING_DIR}/ next to agent.yaml); Claude: auth_provider api_key or oauth_token only (Bedrock, Vertex AI and Foundry requests are signed for their own host and are refused)`,
    )
    .option(
      '--replay [dir]',
      'answer every request from a recording: no network, no key; a request with no recording errors its case',
    )
    .option(
      '--record-missing',
      'with --replay: record live (needs the key) only the requests with no recording',
      false,
    )
    .option('--re-record', 'with --record: replace the recordings of the cases that run', false)
    .option(
      '--replay-tools',
      'with --replay: serve every tool call its recorded result instead of running the tool',
      false,
    );
}

/** A checked choice of recording mode: parsed before anything is loaded, opened once the agent is. */
export interface RecordingChoice {
  /** Whether --record or --replay was given. */
  readonly enabled: boolean;
  /** Opens the recorder for this agent (reads and checks every file in replay); undefined without the flags. */
  open(agent: LoadedAgent, onNotice: (message: string) => void): Promise<{ recorder?: Recorder }>;
}

/** Checks the flags' combinations; throws UsageError (exit 2) for one that cannot work. */
export function parseRecordingFlags(flags: RecordingFlags): RecordingChoice {
  const { record, replay } = flags;
  if (record !== undefined && replay !== undefined)
    throw new UsageError(
      '--record',
      'cannot be used with --replay',
      'record first, then replay in a second run; or use --replay --record-missing',
    );
  if (flags.recordMissing && replay === undefined)
    throw new UsageError(
      '--record-missing',
      'needs --replay',
      'holodeck test agent.yaml --replay --record-missing',
    );
  if (flags.reRecord && record === undefined)
    throw new UsageError('--re-record', 'needs --record', 'holodeck test agent.yaml --record --re-record');
  if (flags.replayTools && replay === undefined) throw new UsageError('--replay-tools', 'needs --replay');
  if (record === undefined && replay === undefined) return { enabled: false, open: async () => ({}) };
  const flag = record !== undefined ? '--record' : '--replay';
  const given = record !== undefined ? record : replay;
  return {
    enabled: true,
    async open(agent, onNotice) {
      const directory =
        typeof given === 'string' ? path.resolve(given) : path.join(agent.directory, DEFAULT_RECORDING_DIR);
      if (flag === '--replay') {
        const folder = await stat(directory).catch(() => undefined);
        if (!folder?.isDirectory())
          throw new UsageError(
            '--replay',
            `the recording folder ${directory} does not exist`,
            `record the suite first: holodeck test ${path.relative(process.cwd(), agent.file) || agent.file} --record${typeof given === 'string' ? ` ${given}` : ''}`,
          );
      }
      const { Recorder } = await import('../../recording/recorder.js');
      const { credentialValues } = await import('../../runner/report/redact-agent-config.js');
      const recorder = await Recorder.open({
        directory,
        mode: flag === '--record' ? 'record' : 'replay',
        recordMissing: flags.recordMissing ?? false,
        reRecord: flags.reRecord ?? false,
        replayTools: flags.replayTools ?? false,
        replayToolNames: (agent.config.tools ?? []).flatMap((tool) =>
          'replay_tools' in tool && tool.replay_tools
            ? [tool.type === 'function' ? tool.name : `${tool.name}_search`]
            : [],
        ),
        agent: {
          name: agent.config.name,
          provider: agent.config.model.provider,
          model: agent.config.model.name,
        },
        secrets: credentialValues({ ...process.env, ...agent.env }),
        onNotice,
      });
      return { recorder };
    },
  };
}

/** The line `holodeck test` prints after a recorded or replayed run. */
export function describeRecording(recorder: Recorder | undefined): string | undefined {
  if (!recorder) return undefined;
  const unmatched = recorder.unmatchedRequests().length;
  const folder = path.relative(process.cwd(), recorder.options.directory) || recorder.options.directory;
  if (recorder.mode === 'record') return `recorded ${recorder.upstreamRequests} request(s) in ${folder}`;
  if (unmatched)
    return `replay: ${unmatched} request(s) had no recording in ${folder} (their cases errored); re-record with --record --re-record, or add them with --replay --record-missing`;
  const live = recorder.upstreamRequests ? `, ${recorder.upstreamRequests} recorded live` : '';
  return `replayed from ${folder}: no request went to the network${live}`;
}

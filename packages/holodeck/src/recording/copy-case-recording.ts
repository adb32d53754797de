import { stat } from 'node:fs/promises';
import path from 'node:path';
import { CHAT_CASE } from './chat-recording.js';
import { caseFileName, readRecordingFile, serialiseRecording, writeAtomically } from './recording-file.js';
import type { RecordingFile } from './recording-file-schema.js';

/**
 * Saves the recording of a case made from another (`holodeck test add --from-run`): the source
 * case's attempt `attempt`, as attempt 1 of `toCase`, so the new case replays at once. Returns the
 * file written, or undefined when the source case has no recording in `directory`.
 */
export async function copyCaseRecording(
  directory: string,
  fromCase: string,
  toCase: string,
  attempt = 1,
): Promise<string | undefined> {
  const source = path.join(directory, caseFileName(fromCase));
  if (!(await stat(source).catch(() => undefined))) return undefined;
  const recording = await readRecordingFile(source);
  const target = path.join(directory, caseFileName(toCase));
  await writeAtomically(
    target,
    serialiseRecording({
      format: recording.format,
      version: recording.version,
      holodeck: recording.holodeck,
      agent: recording.agent,
      case: toCase,
      exchanges: recording.exchanges
        .filter((exchange) => exchange.attempt === attempt)
        .map((exchange) => ({ ...exchange, attempt: 1 })),
      tool_calls: recording.tool_calls
        .filter((call) => call.attempt === attempt)
        .map((call) => ({ ...call, attempt: 1 })),
    }),
  );
  return target;
}

/** Whether a recording's agent requests are those of a conversation of these user turns, in order. */
function isRecordingOf(recording: RecordingFile, inputs: readonly string[]): boolean {
  const agent = recording.exchanges.filter((exchange) => exchange.source === 'agent');
  const turns = Math.max(0, ...agent.map((exchange) => exchange.turn));
  if (turns !== inputs.length) return false;
  return inputs.every((input, index) => {
    // The input as it appears inside a JSON string of the request body.
    const quoted = JSON.stringify(input).slice(1, -1);
    return agent.some(
      (exchange) => exchange.turn === index + 1 && JSON.stringify(exchange.request.body).includes(quoted),
    );
  });
}

/**
 * Saves the recording of a chat (`holodeck chat --record`, the case `chat`) as the recording of
 * `toCase` (`holodeck test add --from-session`), when it is the recording of the conversation of
 * `inputs`: one turn per input, each input in its turn's requests. Returns the file written, or
 * why nothing was copied.
 */
export async function copyChatRecording(
  directory: string,
  toCase: string,
  inputs: readonly string[],
): Promise<{ file: string } | { reason: string }> {
  const source = path.join(directory, caseFileName(CHAT_CASE));
  if (!(await stat(source).catch(() => undefined))) return { reason: `no chat recording in ${directory}` };
  const recording = await readRecordingFile(source);
  if (!isRecordingOf(recording, inputs))
    return { reason: `the chat recording ${source} is of another conversation` };
  return { file: (await copyCaseRecording(directory, CHAT_CASE, toCase)) ?? source };
}

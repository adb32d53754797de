import { stat } from 'node:fs/promises';
import path from 'node:path';
import { caseFileName, readRecordingFile, serialiseRecording, writeAtomically } from './recording-file.js';

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

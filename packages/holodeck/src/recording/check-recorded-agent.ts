import path from 'node:path';
import { holodeckVersion } from '../holodeck-version.js';
import { RecordingError } from './recording-error.js';
import type { RecordedAgent, RecordingFile } from './recording-file-schema.js';

/**
 * Refuses a recording made for another agent (name or provider); tells `onNotice` when it was made
 * with another model or by another HoloDeck version, whose requests may no longer match.
 */
export function checkRecordedAgent(
  file: string,
  recording: RecordingFile,
  agent: RecordedAgent,
  onNotice?: (message: string) => void,
): void {
  const theirs = recording.agent;
  if (theirs.name !== agent.name || theirs.provider !== agent.provider)
    throw new RecordingError(
      `${file}: recorded for agent "${theirs.name}" (provider ${theirs.provider}), not for this agent "${agent.name}" (provider ${agent.provider})\n    hint: point --replay at this agent's recording folder, or record it with --record --re-record`,
      file,
    );
  if (theirs.model !== agent.model)
    onNotice?.(
      `${path.basename(file)} was recorded with model ${theirs.model}, this agent uses ${agent.model}: its requests will not match; re-record with --record --re-record`,
    );
  if (recording.holodeck !== holodeckVersion())
    onNotice?.(
      `${path.basename(file)} was recorded by HoloDeck ${recording.holodeck}, this is ${holodeckVersion()}: if requests no longer match, re-record with --record --re-record`,
    );
}

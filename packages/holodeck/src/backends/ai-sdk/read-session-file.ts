import { readFile } from 'node:fs/promises';
import { AgentSessionError } from '../../errors.js';
import { errorMessage, isRecord } from '../../support.js';
import {
  SESSION_ID_PATTERN,
  SESSION_SCHEMA_VERSION,
  type SessionFile,
  SessionFileSchema,
  sessionFilePath,
} from './session-file-schema.js';

function isMissing(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
}

/**
 * Loads a saved session to resume it. Everything that can go wrong is an AgentSessionError that
 * says what and where: an id that cannot be a session id, no such file, a file that is not JSON,
 * one from a newer HoloDeck, or one whose contents do not match the schema.
 */
export async function readSessionFile(agentDirectory: string, sessionId: string): Promise<SessionFile> {
  if (!SESSION_ID_PATTERN.test(sessionId)) {
    throw new AgentSessionError(
      `"${sessionId}" is not a session id: ids are letters, digits, "-" and "_" (as printed when a chat ends)`,
    );
  }
  const file = sessionFilePath(agentDirectory, sessionId);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (isMissing(error)) {
      throw new AgentSessionError(
        `no saved session "${sessionId}" for this agent: looked for ${file}. Sessions are saved next to agent.yaml, in .holodeck/sessions/`,
      );
    }
    throw new AgentSessionError(`session file ${file} cannot be read: ${String(error)}`, { cause: error });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new AgentSessionError(`session file ${file} is not valid JSON (${errorMessage(error)})`);
  }
  const version = isRecord(data) ? data.schemaVersion : undefined;
  if (typeof version === 'number' && version > SESSION_SCHEMA_VERSION) {
    throw new AgentSessionError(
      `session file ${file} has schemaVersion ${version}, written by a newer HoloDeck; this one reads schemaVersion ${SESSION_SCHEMA_VERSION}. Upgrade HoloDeck to resume it`,
    );
  }
  const parsed = SessionFileSchema.safeParse(data);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`)
      .join('; ');
    throw new AgentSessionError(`session file ${file} is not a valid HoloDeck session: ${problems}`);
  }
  if (parsed.data.sessionId !== sessionId) {
    throw new AgentSessionError(
      `session file ${file} holds session "${parsed.data.sessionId}", not "${sessionId}"`,
    );
  }
  return parsed.data;
}

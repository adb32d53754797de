import path from 'node:path';
import { z } from 'zod';
import { SessionMessageSchema } from './session-message.js';

/** Version of the session file format written by this HoloDeck; bump it with every change. */
export const SESSION_SCHEMA_VERSION = 1;

/** A session id as HoloDeck makes them, and the only kind a session file path is built from. */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** A saved AI SDK conversation: `<agent folder>/.holodeck/sessions/<sessionId>.json`. */
export const SessionFileSchema = z.strictObject({
  schemaVersion: z.literal(SESSION_SCHEMA_VERSION),
  sessionId: z.string().regex(SESSION_ID_PATTERN),
  /** The agent's name and model when the file was written, for a human reading it. */
  agent: z.string(),
  provider: z.string(),
  model: z.string(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  messages: z.array(SessionMessageSchema),
});
/** The contents of a session file. */
export type SessionFile = z.infer<typeof SessionFileSchema>;

/** Where sessions of the agent in `agentDirectory` are saved. */
export function sessionsDirectory(agentDirectory: string): string {
  return path.join(agentDirectory, '.holodeck', 'sessions');
}

/** The file of one session. The id must match SESSION_ID_PATTERN (checked by the callers). */
export function sessionFilePath(agentDirectory: string, sessionId: string): string {
  return path.join(sessionsDirectory(agentDirectory), `${sessionId}.json`);
}

import { cp, stat } from 'node:fs/promises';
import path from 'node:path';
import { AgentSessionError } from '../../errors.js';
import { copySessionFile } from '../copy-session-file.js';
import { configDirectory, findTranscriptFile } from './check-resumable.js';
import { claudeProjectFolder } from './claude-project-folder.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The CLI's session ids are UUIDs: nothing in one climbs out of a folder. */
function checked(sessionId: string): string {
  if (!/^[A-Za-z0-9-]{1,128}$/.test(sessionId))
    throw new AgentSessionError(`"${sessionId}" is not a Claude session id`);
  return sessionId;
}

async function isDirectory(candidate: string): Promise<boolean> {
  return (await stat(candidate).catch(() => undefined))?.isDirectory() ?? false;
}

/**
 * Copies the CLI's transcript of a session (`projects/<folder>/<id>.jsonl`, and the `<id>/` folder
 * of its subagents and large tool results, when there is one) into `directory`.
 */
export async function exportClaudeSession(sessionId: string, directory: string, env: Env): Promise<boolean> {
  const { file } = await findTranscriptFile(checked(sessionId), env);
  if (!file) return false;
  const companion = file.replace(/\.jsonl$/, '');
  if (await isDirectory(companion))
    await cp(companion, path.join(directory, sessionId), { recursive: true, force: true });
  return copySessionFile(file, path.join(directory, `${sessionId}.jsonl`));
}

/**
 * Puts an exported transcript where the CLI resumes it from: over this machine's copy when it has
 * one, else in the project folder of the agent's working directory (the CLI looks there only).
 */
export async function importClaudeSession(
  sessionId: string,
  directory: string,
  env: Env,
  workingDirectory: string,
): Promise<boolean> {
  const source = path.join(directory, `${checked(sessionId)}.jsonl`);
  const config = configDirectory(env);
  if (!config)
    throw new AgentSessionError(
      `session "${sessionId}" cannot be resumed here: neither HOME nor CLAUDE_CONFIG_DIR is set, so the Claude CLI has no sessions folder`,
    );
  const local = (await findTranscriptFile(sessionId, env)).file;
  const target =
    local ??
    path.join(config, 'projects', await claudeProjectFolder(workingDirectory, env), `${sessionId}.jsonl`);
  if (!(await copySessionFile(source, target))) return false;
  const companion = path.join(directory, sessionId);
  if (await isDirectory(companion))
    await cp(companion, target.replace(/\.jsonl$/, ''), { recursive: true, force: true });
  return true;
}

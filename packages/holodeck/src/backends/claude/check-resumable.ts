import { access, readdir } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../../errors.js';

/**
 * The CLI's config folder as the agent's CLI process sees it: its env is built from agent.env
 * (build-subprocess-env.ts), so it is that env's CLAUDE_CONFIG_DIR, else its HOME's `.claude`.
 */
export function configDirectory(env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (env.CLAUDE_CONFIG_DIR) return env.CLAUDE_CONFIG_DIR;
  return env.HOME ? path.join(env.HOME, '.claude') : undefined;
}

/**
 * Where the CLI keeps the transcript of session `sessionId`: `projects/<folder>/<id>.jsonl` in its
 * config folder, any project folder (the CLI names them after the working directory in its own
 * way). `projects` is undefined when the config folder is not known (no HOME, no CLAUDE_CONFIG_DIR).
 */
export async function findTranscriptFile(
  sessionId: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ projects: string | undefined; file: string | undefined }> {
  const config = configDirectory(env);
  if (!config) return { projects: undefined, file: undefined };
  const projects = path.join(config, 'projects');
  const folders = await readdir(projects).catch(() => [] as string[]);
  const name = `${sessionId}.jsonl`;
  const found = await Promise.all(
    folders.map((folder) =>
      access(path.join(projects, folder, name)).then(
        () => path.join(projects, folder, name),
        () => undefined,
      ),
    ),
  );
  return { projects, file: found.find((file) => file !== undefined) };
}

/**
 * `--resume <id>` of a session the CLI has no transcript of stops before a process starts, with
 * exit 2, instead of the CLI's own exit and stderr. When the config folder is not known, the CLI
 * decides.
 */
export async function checkResumable(
  sessionId: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<void> {
  const { projects, file } = await findTranscriptFile(sessionId, env);
  if (!projects || file) return;
  throw new UsageError(
    '--resume',
    `no saved session "${sessionId}" for this agent (the Claude CLI keeps sessions in ${projects})`,
    'use the id the chat printed when it ended ("resume with --resume <id>"), with the same agent.yaml and HOME',
  );
}

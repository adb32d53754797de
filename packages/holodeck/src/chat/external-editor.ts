import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Edits `text` in the user's editor (`$VISUAL`, else `$EDITOR`, else `vi`), run through the shell
 * on the terminal, and returns what was saved. The file is private (0600) and removed afterwards.
 * An editor that cannot start or exits non-zero leaves the message as it was, with the reason.
 */
export function editInExternalEditor(
  text: string,
  env: Record<string, string | undefined> = process.env,
): { text: string } | { error: string } {
  const editor = env.VISUAL?.trim() || env.EDITOR?.trim() || 'vi';
  const folder = mkdtempSync(path.join(tmpdir(), 'holodeck-message-'));
  const file = path.join(folder, 'message.md');
  try {
    writeFileSync(file, text, { mode: 0o600 });
    // The file is passed as "$1" so the editor setting may hold arguments but the path is never parsed.
    const run = spawnSync('/bin/sh', ['-c', `${editor} "$1"`, 'holodeck-editor', file], {
      stdio: 'inherit',
      env: env as NodeJS.ProcessEnv,
    });
    if (run.error) return { error: `the editor ${editor} did not start: ${run.error.message}` };
    if (run.status !== 0)
      return {
        error: `the editor ${editor} exited with ${run.status ?? run.signal}; the message is unchanged (set VISUAL or EDITOR)`,
      };
    return { text: readFileSync(file, 'utf8') };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

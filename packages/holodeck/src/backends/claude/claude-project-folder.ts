import { realpath } from 'node:fs/promises';
import path from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

/** The longest folder name the CLI gives a working directory before it shortens the name. */
export const LONGEST_PROJECT_FOLDER = 200;

/**
 * The CLI's fingerprint of a long path: the 32-bit string hash h = 31·h + code unit (over UTF-16
 * code units, wrapping), its magnitude in base 36.
 */
function pathFingerprint(text: string): string {
  let hash = 0;
  for (let index = 0; index < text.length; index++) hash = (Math.imul(hash, 31) + text.charCodeAt(index)) | 0;
  return Math.abs(hash).toString(36);
}

/** A name the CLI takes from CLAUDE_CODE_PROJECT_DIR_NAME: a short plain name, not a device name. */
function namedFolder(name: string | undefined): string | undefined {
  if (!name || !/^[A-Za-z0-9_-]{1,64}$/.test(name)) return undefined;
  return /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])$/i.test(name) ? undefined : name;
}

/**
 * The name of the CLI's project folder (`projects/<name>/` of its config folder) for a working
 * directory's real path, as the CLI names it: every character that is not a letter or a digit made
 * "-" (`/srv/agent` → `-srv-agent`); a name longer than 200 characters is cut at 200 and gets "-"
 * and the fingerprint of the whole path. With CLAUDE_CONFIG_DIR set, a valid
 * CLAUDE_CODE_PROJECT_DIR_NAME is the name instead.
 */
export function claudeProjectFolderName(realPath: string, env: Env = {}): string {
  const named = env.CLAUDE_CONFIG_DIR ? namedFolder(env.CLAUDE_CODE_PROJECT_DIR_NAME) : undefined;
  if (named) return named;
  const name = realPath.replace(/[^a-zA-Z0-9]/g, '-');
  if (name.length <= LONGEST_PROJECT_FOLDER) return name;
  return `${name.slice(0, LONGEST_PROJECT_FOLDER)}-${pathFingerprint(realPath)}`;
}

/** The CLI's project folder name for a working directory (its real path; NFC on macOS, as the CLI). */
export async function claudeProjectFolder(workingDirectory: string, env: Env = {}): Promise<string> {
  const real = await realpath(workingDirectory).catch(() => path.resolve(workingDirectory));
  return claudeProjectFolderName(process.platform === 'darwin' ? real.normalize('NFC') : real, env);
}

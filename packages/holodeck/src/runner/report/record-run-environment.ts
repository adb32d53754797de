import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { z } from 'zod';
import { holodeckVersion } from '../../holodeck-version.js';
import type { GitState, RunEnvironment } from './run-report.js';

const GIT_TIMEOUT_MS = 5_000;
const CLAUDE_SDK = '@anthropic-ai/claude-agent-sdk';
const AI_SDK = 'ai';

const SdkPackageJson = z.looseObject({
  name: z.string(),
  version: z.string(),
  claudeCodeVersion: z.string().optional(),
});

/**
 * What a run records about where it ran: the git state of the agent's folder and the versions of
 * HoloDeck, Node, the backend's model SDK and (Claude backend) the Claude Code CLI it ships. The
 * versions are read from the installed package.json files, not by loading the SDKs. Never throws:
 * what cannot be known is null.
 */
export async function recordRunEnvironment(
  directory: string,
  provider: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<RunEnvironment> {
  const onClaude = provider === 'anthropic';
  const [git, sdk] = await Promise.all([
    readGitState(directory),
    readInstalledPackage(onClaude ? CLAUDE_SDK : AI_SDK),
  ]);
  // A binary named by HOLODECK_CLAUDE_PATH is not the one the SDK ships: its version is unknown.
  const cli = onClaude && !env.HOLODECK_CLAUDE_PATH ? (sdk?.claudeCodeVersion ?? null) : null;
  return {
    git,
    versions: {
      holodeck: holodeckVersion(),
      node: process.version,
      sdk: sdk ? { name: sdk.name, version: sdk.version } : null,
      cli,
    },
  };
}

/** HEAD, branch and dirty flag of the work tree holding `directory`; null outside git. */
export async function readGitState(directory: string): Promise<GitState | null> {
  const [commit, branch, status] = await Promise.all([
    git(directory, ['rev-parse', '--verify', '-q', 'HEAD']),
    git(directory, ['symbolic-ref', '--short', '-q', 'HEAD']),
    git(directory, ['status', '--porcelain', '--untracked-files=no']),
  ]);
  if (commit === undefined || commit === '') return null;
  return { commit, branch: branch ? branch : null, dirty: status === undefined ? false : status !== '' };
}

function git(cwd: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, timeout: GIT_TIMEOUT_MS, windowsHide: true }, (error, stdout) => {
      resolve(error ? undefined : stdout.trim());
    });
  });
}

/** The package.json of an installed package, found from its entry file (package.json may not be exported). */
async function readInstalledPackage(name: string): Promise<z.infer<typeof SdkPackageJson> | undefined> {
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve(name);
  } catch {
    return undefined;
  }
  for (let folder = path.dirname(entry); path.dirname(folder) !== folder; folder = path.dirname(folder)) {
    const parsed = await readFile(path.join(folder, 'package.json'), 'utf8')
      .then(
        (text) => SdkPackageJson.safeParse(JSON.parse(text)),
        () => undefined,
      )
      .catch(() => undefined);
    if (parsed?.success && parsed.data.name === name) return parsed.data;
  }
  return undefined;
}

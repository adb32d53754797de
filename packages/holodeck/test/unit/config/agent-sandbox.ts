import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { checkBackendConfig } from '../../../src/backends/select-backend.js';
import { type AgentValidation, validateAgentFile } from '../../../src/config/index.js';
import type { ConfigIssue } from '../../../src/errors.js';

/** A throwaway agent folder plus a fake home folder, so no real ~/.holodeck/.env leaks into tests. */
export interface AgentSandbox {
  dir: string;
  home: string;
  agentFile: string;
  /** Writes a file relative to the agent folder (folders created as needed); returns its path. */
  write(relative: string, content: string): Promise<string>;
  /** Writes a file relative to the fake home folder. */
  writeHome(relative: string, content: string): Promise<string>;
  /** Writes agent.yaml and validates it with an empty process environment unless `env` is given. */
  validate(yaml: string, env?: Record<string, string | undefined>): Promise<AgentValidation>;
  remove(): Promise<void>;
}

export async function createSandbox(): Promise<AgentSandbox> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'holodeck-config-'));
  const dir = path.join(root, 'agent');
  const home = path.join(root, 'home');
  await mkdir(dir);
  await mkdir(home);
  const agentFile = path.join(dir, 'agent.yaml');
  const writeUnder = async (base: string, relative: string, content: string): Promise<string> => {
    const file = path.join(base, relative);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
    return file;
  };
  const write = (relative: string, content: string) => writeUnder(dir, relative, content);
  return {
    dir,
    home,
    agentFile,
    write,
    writeHome: (relative, content) => writeUnder(home, relative, content),
    async validate(yaml, env = {}) {
      await write('agent.yaml', yaml);
      // The backend's startup rules as chat and test run them; governance files only where a test asks.
      return validateAgentFile(agentFile, { env, homeDir: home, checkBackendConfig });
    },
    remove: () => rm(root, { recursive: true, force: true }),
  };
}

/** Joins lines so a test can read line numbers off the array index (index + 1). */
export function lines(...rows: string[]): string {
  return `${rows.join('\n')}\n`;
}

/** The first six lines of a valid agent.yaml; tests append from line 7. */
export const BASE = [
  'name: test-agent',
  'model:',
  '  provider: anthropic',
  '  name: claude-sonnet-4-5',
  'instructions:',
  '  inline: Be helpful.',
];

/** An issue as one line: `line:column path: message | hint`, what a test asserts on. */
export function brief(issue: ConfigIssue): string {
  const hint = issue.hint === undefined ? '' : ` | ${issue.hint}`;
  return `${issue.line}:${issue.column} ${issue.path}: ${issue.message}${hint}`;
}

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseEnv } from 'node:util';
import type { FieldIssue } from './field-issue.js';

/** The merged environment agent.yaml is substituted with, and problems reading `.env` files. */
export interface LoadedEnvironment {
  env: Record<string, string>;
  /** The `.env` files read, lowest precedence first. */
  files: string[];
  issues: FieldIssue[];
}

/** Where variables can come from, lowest precedence first (for messages). */
export function envSourcesHint(agentDirectory: string, homeDir: string): string {
  return `${path.join(agentDirectory, '.env')}, ${path.join(homeDir, '.holodeck', '.env')} or the environment`;
}

/**
 * Merges `~/.holodeck/.env` < `<agent folder>/.env` < the process environment (the process wins,
 * so CI can override files). Missing files are fine. Nothing is written to process.env.
 */
export async function loadEnvFiles(options: {
  agentDirectory: string;
  homeDir: string;
  processEnv: Readonly<Record<string, string | undefined>>;
}): Promise<LoadedEnvironment> {
  const result: LoadedEnvironment = { env: {}, files: [], issues: [] };
  const candidates = [
    path.join(options.homeDir, '.holodeck', '.env'),
    path.join(options.agentDirectory, '.env'),
  ];
  for (const file of candidates) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if (isNodeError(error) && error.code === 'ENOENT') continue;
      const reason = isNodeError(error) ? (error.code ?? error.message) : String(error);
      result.issues.push({
        path: [],
        file,
        message: `cannot read this .env file (${reason})`,
        hint: 'fix its permissions or remove it',
      });
      continue;
    }
    result.files.push(file);
    for (const [name, value] of Object.entries(parseEnv(text))) {
      if (value !== undefined) result.env[name] = value;
    }
  }
  for (const [name, value] of Object.entries(options.processEnv)) {
    if (value !== undefined) result.env[name] = value;
  }
  return result;
}

/** Narrows an unknown thrown value to a Node.js system error. */
export function isNodeError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && 'code' in error;
}

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseEnv } from 'node:util';
import type { FieldIssue } from 'yaml-diagnostics';

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
    for (const line of malformedEnvLines(text))
      result.issues.push({
        path: [],
        file,
        position: { line, column: 1 },
        message: `line ${line} of this .env file is not NAME=value, so it sets nothing`,
        hint: 'write NAME=value (a # starts a comment); quote a value that spans lines',
      });
    for (const [name, value] of Object.entries(parseEnv(text))) {
      if (value !== undefined) result.env[name] = value;
    }
  }
  for (const [name, value] of Object.entries(options.processEnv)) {
    if (value !== undefined) result.env[name] = value;
  }
  return result;
}

/**
 * Lines of a .env file that set nothing (Node's parser skips them silently): not blank, not a
 * comment, not `NAME=value` (optionally `export NAME=value`), and not inside a quoted value that
 * spans lines.
 */
export function malformedEnvLines(text: string): number[] {
  const malformed: number[] = [];
  let openQuote: string | undefined;
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    if (openQuote) {
      if (line.includes(openQuote)) openQuote = undefined;
      continue;
    }
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const assignment = /^(?:export\s+)?[A-Za-z_][A-Za-z0-9_.-]*\s*=\s*(.*)$/.exec(trimmed);
    if (!assignment) {
      malformed.push(index + 1);
      continue;
    }
    const value = assignment[1] ?? '';
    const quote = value[0];
    if ((quote === '"' || quote === "'" || quote === '`') && !value.slice(1).includes(quote))
      openQuote = quote;
  }
  return malformed;
}

/** Narrows an unknown thrown value to a Node.js system error. */
export function isNodeError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && 'code' in error;
}

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RecordedRequest } from '@holodeck/testkit';
import { stringify } from 'yaml';
import type { LoadedAgent } from '../../../src/config/index.js';
import { loadAgent } from '../../../src/load-agent.js';

/** The API key tests hand the CLI; the fake server records the header it arrives in. */
export const TEST_API_KEY = 'sk-test-holodeck-e2e';

export interface E2eAgentOptions {
  /** agent.yaml content; `name`, `model` and `instructions` get defaults. */
  config?: Record<string, unknown>;
  /** Extra files to write next to agent.yaml (relative path → content). */
  files?: Record<string, string>;
  /** Extra environment variables for the agent. */
  env?: Record<string, string>;
}

export interface E2eAgent {
  directory: string;
  file: string;
  env: Record<string, string>;
  load(): Promise<LoadedAgent>;
}

/**
 * Writes an agent.yaml in a fresh temp folder wired to the fake Anthropic server: a fresh
 * HOME (no user settings or sessions leak in), a test API key, and no API retries.
 */
export function createE2eAgent(baseUrl: string, options: E2eAgentOptions = {}): E2eAgent {
  const directory = mkdtempSync(path.join(tmpdir(), 'holodeck-e2e-'));
  const home = path.join(directory, 'home');
  mkdirSync(home);
  const config = {
    name: 'e2e-agent',
    model: { provider: 'anthropic', name: 'claude-sonnet-4-5' },
    instructions: { inline: 'You are the e2e test agent. Answer briefly.' },
    ...options.config,
  };
  const file = path.join(directory, 'agent.yaml');
  writeFileSync(file, stringify(config));
  for (const [relative, content] of Object.entries(options.files ?? {})) {
    mkdirSync(path.dirname(path.join(directory, relative)), { recursive: true });
    writeFileSync(path.join(directory, relative), content);
  }
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: TEST_API_KEY,
    CLAUDE_CODE_MAX_RETRIES: '0',
    ...options.env,
  };
  return { directory, file, env, load: () => loadAgent(file, { env, homeDir: home }) };
}

/** The n-th agent-loop request the fake model received; fails the test when there is none. */
export function requestAt(server: { requests: readonly RecordedRequest[] }, index: number): RecordedRequest {
  const request = server.requests[index];
  if (!request)
    throw new Error(`the fake model received ${server.requests.length} request(s), not #${index + 1}`);
  return request;
}

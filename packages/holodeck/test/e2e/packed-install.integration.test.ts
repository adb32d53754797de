import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  chatReply,
  type FakeAnthropicServer,
  type FakeOpenAIServer,
  reply,
  startFakeAnthropic,
  startFakeOpenAI,
} from '@holodeck/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// What a user gets from `npm install holodeck`: the seven published packages are packed with
// `npm pack` (their `files` lists decide what ships) and installed into an empty folder from the
// tarballs, third-party dependencies from npm's cache or the registry. Then the installed bin runs.
// Installing takes tens of seconds: one install for the whole file, generous timeouts.

const PACKAGES = fileURLToPath(new URL('../../../', import.meta.url));
const PUBLISHED = [
  'secret-patterns',
  'package-version',
  'judge-client',
  'verdict-stats',
  'yaml-diagnostics',
  'novarch',
  'holodeck',
] as const;
const INSTALL_TIMEOUT_MS = 300_000;

interface PackedFile {
  path: string;
}
interface PackResult {
  name: string;
  version: string;
  filename: string;
  files: PackedFile[];
}

let root: string;
let app: string;
let home: string;
let packed: Map<string, PackResult>;
let fake: FakeAnthropicServer;
let fakeOpenAI: FakeOpenAIServer;

/** npm's own variables (npm_config_*, set when the tests run under `npm test`) stay out of it. */
function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !/^npm_/i.test(key)) env[key] = value;
  }
  return { ...env, ...extra };
}

function run(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; timeout: number },
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { ...options, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      const timedOut = error?.killed ? `\n(killed after ${options.timeout} ms)` : '';
      resolve({ code, stdout, stderr: `${stderr}${timedOut}` });
    });
  });
}

/** Runs the installed `holodeck` as a user would: the bin npm linked, a fresh HOME. */
function holodeck(args: string[], env: Record<string, string> = {}) {
  return run(path.join(app, 'node_modules', '.bin', 'holodeck'), args, {
    cwd: app,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, NO_COLOR: '1', ...env },
    timeout: 60_000,
  });
}

beforeAll(async () => {
  for (const name of PUBLISHED) {
    const built = path.join(PACKAGES, name, 'dist', 'index.js');
    if (!existsSync(built))
      throw new Error(`${built} is missing: run \`npm run build\` at the repository root`);
  }
  const bundle = path.join(PACKAGES, 'holodeck', 'dist', 'bundle', 'cli', 'main.cjs');
  if (!existsSync(bundle))
    throw new Error(`${bundle} is missing: run \`npm run build\` at the repository root`);

  root = mkdtempSync(path.join(tmpdir(), 'holodeck-packed-'));
  const packs = path.join(root, 'packs');
  app = path.join(root, 'app');
  home = path.join(root, 'home');
  for (const folder of [packs, app, home]) mkdirSync(folder);

  packed = new Map();
  for (const name of PUBLISHED) {
    const args = ['pack', '--json', '--pack-destination', packs];
    const outcome = await run('npm', args, {
      cwd: path.join(PACKAGES, name),
      env: cleanEnv(),
      timeout: 120_000,
    });
    if (outcome.code !== 0) {
      throw new Error(
        `\`npm ${args.join(' ')}\` in packages/${name} exited ${outcome.code}:\n${outcome.stderr}`,
      );
    }
    const [result] = JSON.parse(outcome.stdout) as PackResult[];
    if (!result) throw new Error(`npm pack printed no result for ${name}`);
    packed.set(name, result);
  }

  const tarball = (name: string) => `file:../packs/${packed.get(name)?.filename}`;
  writeFileSync(
    path.join(app, 'package.json'),
    `${JSON.stringify(
      {
        name: 'packed-install-check',
        private: true,
        dependencies: Object.fromEntries(PUBLISHED.map((name) => [name, tarball(name)])),
        // holodeck asks for our own packages (0.1.0): the tarballs, never the registry.
        overrides: {
          'secret-patterns': '$secret-patterns',
          'package-version': '$package-version',
          novarch: '$novarch',
          'judge-client': '$judge-client',
          'verdict-stats': '$verdict-stats',
          'yaml-diagnostics': '$yaml-diagnostics',
        },
        // What holodeck's README tells users to allow. better-sqlite3's build (node-gyp compiles
        // SQLite: ~2 minutes on 2 cores, as no prebuilt binary is reachable here) is denied:
        // validate and chat -p without retrieval or governance never open a database.
        allowScripts: { esbuild: true, 'better-sqlite3': false },
      },
      null,
      2,
    )}\n`,
  );
  const args = ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=warn'];
  const install = await run('npm', args, { cwd: app, env: cleanEnv(), timeout: INSTALL_TIMEOUT_MS });
  if (install.code !== 0) {
    throw new Error(
      `\`npm ${args.join(' ')}\` of the packed tarballs in ${app} exited ${install.code} ` +
        "(it needs npm's cache, filled by `npm ci` at the repository root, or the npm registry):\n" +
        install.stderr.slice(-4000),
    );
  }
  expect(install.stderr).not.toMatch(/not yet covered by allowScripts/);
  fake = await startFakeAnthropic();
  fakeOpenAI = await startFakeOpenAI();
}, INSTALL_TIMEOUT_MS + 120_000);

afterAll(async () => {
  await Promise.all([fake?.close(), fakeOpenAI?.close()]);
});

describe('the packed packages, installed from their tarballs', () => {
  it('ship their README, LICENSE and builds, and no tests, sources, code caches or SDK copy', () => {
    for (const name of PUBLISHED) {
      const files = (packed.get(name)?.files ?? []).map((file) => file.path);
      expect(files, name).toEqual(
        expect.arrayContaining(['package.json', 'README.md', 'LICENSE', 'dist/index.js']),
      );
      const unwanted = files.filter(
        (file) =>
          /^(src|test|scripts)\//.test(file) ||
          file.includes('.code-cache') ||
          file.endsWith('.tsbuildinfo') ||
          file.startsWith('dist/bundle/vendor/') ||
          (file.endsWith('.map') && file !== 'dist/bundle/cli/main.cjs.map'),
      );
      expect(unwanted, name).toEqual([]);
      const manifest = JSON.parse(readFileSync(path.join(PACKAGES, name, 'package.json'), 'utf8'));
      expect(manifest.license, name).toBe('MIT');
    }
    expect(packed.get('holodeck')?.files.map((file) => file.path)).toEqual(
      expect.arrayContaining(['bin/holodeck.js', 'bin/load-with-code-cache.js', 'dist/bundle/cli/main.cjs']),
    );
  });

  it('installs our own packages, not namesakes from the registry', () => {
    for (const name of PUBLISHED) {
      const installed = JSON.parse(
        readFileSync(path.join(app, 'node_modules', name, 'package.json'), 'utf8'),
      );
      const source = JSON.parse(readFileSync(path.join(PACKAGES, name, 'package.json'), 'utf8'));
      expect({ name: installed.name, description: installed.description }).toEqual({
        name,
        description: source.description,
      });
    }
  });

  it('holodeck --help and --version', async () => {
    const help = await holodeck(['--help']);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^Usage: holodeck /);
    for (const command of ['validate', 'schema', 'chat', 'test']) expect(help.stdout).toContain(command);
    const version = await holodeck(['--version']);
    expect(version).toMatchObject({ code: 0, stdout: `${packed.get('holodeck')?.version}\n` });
  });

  it('holodeck validate on a small agent.yaml', async () => {
    const agentDir = path.join(root, 'validate-agent');
    mkdirSync(agentDir);
    writeFileSync(
      path.join(agentDir, 'agent.yaml'),
      'name: packed\nmodel:\n  provider: anthropic\n  name: claude-sonnet-4-5\ninstructions:\n  inline: Answer briefly.\n',
    );
    const outcome = await holodeck(['validate', path.join(agentDir, 'agent.yaml')], {
      ANTHROPIC_API_KEY: 'sk-test',
    });
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout).toMatch(/✓ .*agent\.yaml is valid\n$/);
  });

  it('holodeck chat -p against the fake Anthropic API, with its code cache in the user cache folder', async () => {
    const agentDir = path.join(root, 'chat-agent');
    mkdirSync(agentDir);
    writeFileSync(
      path.join(agentDir, 'agent.yaml'),
      'name: packed\nmodel:\n  provider: anthropic\n  name: claude-sonnet-4-5\ninstructions:\n  inline: Answer briefly.\n',
    );
    fake.script(reply('Installed and answering.'));
    const outcome = await holodeck(['chat', path.join(agentDir, 'agent.yaml'), '-p', 'Are you there?'], {
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_API_KEY: 'sk-test-packed',
      CLAUDE_CODE_MAX_RETRIES: '0',
    });
    expect(outcome, outcome.stderr).toMatchObject({ code: 0, stdout: 'Installed and answering.\n' });
    fake.assertComplete();
    // The code cache went to ~/.cache/holodeck/code-cache; the installed package is unchanged.
    expect(readdirSync(path.join(home, '.cache', 'holodeck', 'code-cache'))).toContainEqual(
      expect.stringMatching(/^main\.cjs\..+\.v8$/),
    );
    const bundleDir = path.join(app, 'node_modules', 'holodeck', 'dist', 'bundle');
    expect(readdirSync(bundleDir)).toEqual(['cli']);
    expect(readdirSync(path.join(bundleDir, 'cli')).sort()).toEqual(['main.cjs', 'main.cjs.map']);
  });

  it('holodeck chat -p on provider openai: the installed AI SDK and its provider, no Claude SDK', async () => {
    // Without dist/bundle/vendor/ (not shipped) the CLI loads the installed packages instead.
    const agentDir = path.join(root, 'openai-agent');
    mkdirSync(agentDir);
    writeFileSync(
      path.join(agentDir, 'agent.yaml'),
      `name: packed\nmodel:\n  provider: openai\n  name: gpt-4o-mini\n  endpoint: ${fakeOpenAI.baseUrl}\ninstructions:\n  inline: Answer briefly.\n`,
    );
    fakeOpenAI.script(chatReply('Installed on OpenAI.'));
    const trace = path.join(agentDir, 'loads.txt');
    const outcome = await holodeck(['chat', path.join(agentDir, 'agent.yaml'), '-p', 'Are you there?'], {
      OPENAI_API_KEY: 'sk-test-packed',
      HOLODECK_TRACE_LOADS: trace,
    });
    expect(outcome, outcome.stderr).toMatchObject({ code: 0, stdout: 'Installed on OpenAI.\n' });
    fakeOpenAI.assertComplete();
    expect(readFileSync(trace, 'utf8').split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(
        /^bundle .*\/node_modules\/holodeck\/dist\/bundle\/cli\/main\.cjs \(code cache \w+\)$/,
      ),
      'installed ai',
      'installed @ai-sdk/openai',
    ]);
  });
});

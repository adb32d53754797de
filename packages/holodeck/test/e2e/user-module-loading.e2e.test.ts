import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { waitUntil } from '@holodeck/testkit';
import { describe, expect, it } from 'vitest';
import { createE2eAgent } from './support/e2e-agent.js';
import { HOLODECK_BIN, runHolodeckCli } from './support/run-holodeck-cli.js';

// A user module (a function tool, a code grader) that never finishes loading, or ends the process
// while it loads: every command ends with its own exit code and says which module it was. No
// model is reached: the agent's base URL points nowhere.

const TOOL = {
  type: 'function',
  name: 'lookup',
  description: 'Looks things up',
  file: 'tool.mjs',
  parameters: { type: 'object', properties: {} },
};

function agentWithTool(source: string, extra: Record<string, unknown> = {}) {
  return createE2eAgent('http://127.0.0.1:9', {
    config: { tools: [TOOL], ...extra },
    files: { 'tool.mjs': `${source}\nexport const lookup = () => 'found';\n` },
  });
}

const NEVER_SETTLES = 'await new Promise(() => {});';

describe('a user module that never finishes loading', () => {
  it.each([
    ['validate', (file: string) => ['validate', file]],
    ['chat -p', (file: string) => ['chat', file, '-p', 'hi']],
    ['test', (file: string) => ['test', file]],
  ])(
    '%s: a top-level await nothing can settle is an error naming the module (exit 2)',
    async (_name, args) => {
      const agent = agentWithTool(NEVER_SETTLES, { test_cases: [{ name: 'one', input: 'hi' }] });
      const outcome = await runHolodeckCli(args(agent.file), agent.env);
      expect(outcome.code, outcome.stderr).toBe(2);
      expect(outcome.stderr).toContain(
        `tools[0].file: cannot load function tool module ${path.join(agent.directory, 'tool.mjs')}: Error: its top-level await never settles (nothing is left running that could settle it); the module must finish loading on its own`,
      );
    },
  );

  it('a module kept alive by a timer fails after the load time limit, naming the module', async () => {
    const agent = agentWithTool('setInterval(() => {}, 1000);\nawait new Promise(() => {});');
    const outcome = await runHolodeckCli(['validate', agent.file], {
      ...agent.env,
      HOLODECK_MODULE_LOAD_TIMEOUT: '1',
    });
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain(
      `cannot load function tool module ${path.join(agent.directory, 'tool.mjs')}: Error: it did not finish loading within 1 s (a top-level await still waiting); set HOLODECK_MODULE_LOAD_TIMEOUT (seconds) if it needs longer`,
    );
  });

  it('a code grader whose top-level await never settles is an error naming it (exit 2)', async () => {
    const agent = createE2eAgent('http://127.0.0.1:9', {
      config: {
        test_cases: [
          { name: 'graded', input: 'hi', metrics: [{ type: 'code', file: 'grader.mjs', function: 'grade' }] },
        ],
      },
      files: { 'grader.mjs': `${NEVER_SETTLES}\nexport const grade = () => true;\n` },
    });
    const outcome = await runHolodeckCli(['test', agent.file], agent.env);
    expect(outcome.code, outcome.stderr).toBe(2);
    expect(outcome.stderr).toContain(
      `cannot load grader module ${path.join(agent.directory, 'grader.mjs')}: Error: its top-level await never settles`,
    );
  });

  it('process.exit(0) at import ends with exit 4 and names the module', async () => {
    const agent = agentWithTool('process.exit(0);');
    const outcome = await runHolodeckCli(['validate', agent.file], agent.env);
    expect(outcome.code).toBe(4);
    expect(outcome.stderr).toBe(
      `error holodeck ended while loading ${path.join(agent.directory, 'tool.mjs')} (process.exit(0) or the like in that module); treated as exit 4\n`,
    );
  });

  it('the first SIGTERM ends a command still loading a module (exit 130)', async () => {
    const agent = agentWithTool(
      "import { writeFileSync } from 'node:fs';\nwriteFileSync(new URL('./loading', import.meta.url), '');\nsetInterval(() => {}, 1000);\nawait new Promise(() => {});",
    );
    const child = spawn(process.execPath, [HOLODECK_BIN, 'chat', agent.file, '-p', 'hi'], {
      env: { NO_COLOR: '1', ...agent.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    // Wait until the module is loading (it writes ./loading), then one SIGTERM.
    await waitUntil(() => existsSync(path.join(agent.directory, 'loading')), {
      timeoutMs: 20_000,
      what: 'the module to start loading (it writes ./loading)',
    });
    child.kill('SIGTERM');
    expect(await closed).toBe(130);
    expect(stderr).toContain(`stopped (SIGTERM) while loading ${path.join(agent.directory, 'tool.mjs')}`);
  });
});

describe('files agent.yaml names must be regular files', () => {
  it('an instructions path that is a FIFO is an error, not a hang', async () => {
    const agent = createE2eAgent('http://127.0.0.1:9', { config: { instructions: { file: 'prompt.fifo' } } });
    execFileSync('mkfifo', [path.join(agent.directory, 'prompt.fifo')]);
    const outcome = await runHolodeckCli(['validate', agent.file], agent.env);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain(
      `instructions.file: instructions file ${path.join(agent.directory, 'prompt.fifo')} is not a regular file`,
    );
  });
});

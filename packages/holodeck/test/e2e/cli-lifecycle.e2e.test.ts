import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { reply, respond, startFakeAnthropic, toolUse, waitUntil } from '@holodeck/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODE_MEANINGS, exitCodesHelp } from '../../src/cli/exit-codes.js';
import { createE2eAgent } from './support/e2e-agent.js';
import { claudeProcesses, isRunning } from './support/process-tree.js';
import { HOLODECK_BIN, runHolodeckCli } from './support/run-holodeck-cli.js';

// One stateless fake model for the file, answering from the last user message: "slow" → a late
// answer; "tool please" → a call of the slow tool, then an answer; anything else → an answer.
let fake: Awaited<ReturnType<typeof startFakeAnthropic>>;
beforeAll(async () => {
  fake = await startFakeAnthropic({
    repeatLast: true,
    steps: [
      respond((request) => {
        const messages = request.messagesBody?.messages ?? [];
        const last = JSON.stringify(messages.at(-1) ?? '');
        if (last.includes('tool_result')) return reply('the tool answered');
        if (last.includes('tool please')) return toolUse('mcp__holodeck_tools__slow', {}, { id: 'slow-1' });
        if (last.includes('slow')) return reply('eventually', { delayMs: 20_000 });
        return reply('hello there');
      }),
    ],
  });
});
afterAll(() => fake.close());

/**
 * A tool module that keeps the event loop alive forever (a module-level setInterval, like a
 * database pool), a tool that waits on its AbortSignal and records why it stopped, and a close()
 * that records it ran.
 */
const LINGERING_MODULE = `
import { writeFileSync } from 'node:fs';
import path from 'node:path';
const here = path.dirname(new URL(import.meta.url).pathname);
setInterval(() => {}, 1000);
export function hello() { return 'hi'; }
export function slow(_args, { signal }) {
  return new Promise((resolve) => {
    signal.addEventListener('abort', () => {
      writeFileSync(path.join(here, 'aborted.txt'), String(signal.reason?.message ?? signal.reason));
      resolve('stopped');
    });
  });
}
export async function close() { writeFileSync(path.join(here, 'closed.txt'), 'closed'); }
`;

function lingeringAgent(extra: Record<string, unknown> = {}) {
  const tool = (name: string) => ({
    type: 'function',
    name,
    description: `the ${name} tool`,
    file: 'tools.mjs',
    parameters: { type: 'object', properties: {} },
    timeout: 1,
  });
  return createE2eAgent(fake.url, {
    config: { tools: [tool('hello'), tool('slow')], ...extra },
    files: { 'tools.mjs': LINGERING_MODULE },
  });
}

/** Runs the CLI, but kills it (and says so) if it has not exited within `ms`. */
function runWithin(args: string[], env: Record<string, string>, ms: number, stdin = '') {
  return new Promise<{ code: number | null; stdout: string; stderr: string; hung: boolean }>((resolve) => {
    const child = spawn(process.execPath, [HOLODECK_BIN, ...args], { env: { NO_COLOR: '1', ...env } });
    let stdout = '';
    let stderr = '';
    let hung = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, ms);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, hung });
    });
    child.stdin.end(stdin);
  });
}

describe('holodeck ends when its work is done, whatever user modules left open', () => {
  it('chat -p prints the answer and exits 0 although the tool module keeps a timer running', async () => {
    const agent = lingeringAgent();
    const outcome = await runWithin(['chat', agent.file, '-p', 'say hi'], agent.env, 30_000);
    expect(outcome).toMatchObject({ hung: false, code: 0, stdout: 'hello there\n' });
    // The module's close() was awaited at teardown.
    expect(readFileSync(path.join(agent.directory, 'closed.txt'), 'utf8')).toBe('closed');
  });

  it('an interactive chat ends at /exit', async () => {
    const agent = lingeringAgent();
    const outcome = await runWithin(['chat', agent.file], agent.env, 30_000, 'say hi\n/exit\n');
    expect(outcome).toMatchObject({ hung: false, code: 0 });
    expect(outcome.stdout).toContain('hello there');
  });

  it('holodeck test exits with its code after the summary', async () => {
    const agent = lingeringAgent({
      test_cases: [{ name: 'greets', input: 'say hi', metrics: [{ type: 'contains', value: 'hello' }] }],
    });
    const outcome = await runWithin(['test', agent.file, '--no-save'], agent.env, 45_000);
    expect(outcome).toMatchObject({ hung: false, code: 0 });
    expect(outcome.stdout).toContain('1 case: 1 passed, 0 failed, 0 errored');
  });

  it("a tool past its timeout gets its AbortSignal aborted, and the module's close() still runs", async () => {
    const agent = lingeringAgent();
    const outcome = await runWithin(['chat', agent.file, '-p', 'tool please', '--json'], agent.env, 30_000);
    expect(outcome).toMatchObject({ hung: false, code: 0 });
    const result = JSON.parse(outcome.stdout);
    expect(result.tool_results[0]).toMatchObject({ call_id: 'slow-1', is_error: true });
    expect(result.tool_results[0].result).toContain('Tool "slow" timed out after 1 s');
    expect(readFileSync(path.join(agent.directory, 'aborted.txt'), 'utf8')).toBe(
      'tool "slow" timed out after 1 s',
    );
    expect(readFileSync(path.join(agent.directory, 'closed.txt'), 'utf8')).toBe('closed');
  });
});

describe('exit codes', () => {
  const readme = fileURLToPath(new URL('../../../../README.md', import.meta.url));

  it('--help of every command shows the one exit-code table, and the README has the same', async () => {
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/nonexistent-home' };
    for (const args of [['--help'], ['test', '--help'], ['chat', '--help'], ['validate', '--help']]) {
      const help = await runHolodeckCli(args, env);
      expect(help.stdout, args.join(' ')).toContain(exitCodesHelp().trim());
    }
    const rows = readFileSync(readme, 'utf8')
      .split('\n')
      .map((line) => /^\| (\d+) +\| (.+?) +\|$/.exec(line))
      .filter((match): match is RegExpExecArray => match !== null)
      .map((match) => ({ code: Number(match[1]), meaning: match[2] }));
    expect(rows).toEqual(EXIT_CODE_MEANINGS);
  });

  it("a flag's own error names the flag and exits 2", async () => {
    const agent = lingeringAgent({ test_cases: [{ name: 'greets', input: 'say hi' }] });
    const cases: [string[], string][] = [
      [['--concurrency', '0'], 'error --concurrency: needs a whole number ≥ 1, got "0"\n'],
      [['--repeat', 'two'], 'error --repeat: needs a whole number ≥ 1 or "auto", got "two"\n'],
      [
        ['--shard', '3/2'],
        'error --shard: invalid shard "3/2"\n    hint: use i/n with 1 ≤ i ≤ n, e.g. --shard 2/4\n',
      ],
      [
        ['--isolation', 'thread'],
        'error --isolation: unknown isolation "thread"\n    hint: use process or session\n',
      ],
      [
        ['--output', 'r.json', '--format', 'pdf'],
        'error --format: unknown report format "pdf"\n    hint: use json, junit, markdown or html\n',
      ],
    ];
    for (const [flags, stderr] of cases) {
      const outcome = await runHolodeckCli(['test', agent.file, ...flags], agent.env);
      expect({ code: outcome.code, stderr: outcome.stderr }, flags.join(' ')).toEqual({ code: 2, stderr });
    }
  });
});

/** Waits until `check` holds, polling. */
async function until(check: () => boolean, ms = 20_000): Promise<void> {
  await waitUntil(check, { timeoutMs: ms, what: 'the awaited process state', intervalMs: 50 });
}

/**
 * The claude processes are gone: killed ones may take a moment to leave the process table (a
 * SIGKILL is delivered asynchronously), so this allows 500 ms, far less than any CLI lingers.
 */
async function expectGone(processes: { pid: number; command: string }[]): Promise<void> {
  await waitUntil(() => !processes.some((claude) => isRunning(claude.pid)), {
    timeoutMs: 500,
    what: 'the claude processes to leave the process table',
  }).catch(() => {}); // the expectations below name the process left
  for (const claude of processes) expect(isRunning(claude.pid), claude.command).toBe(false);
}

/** Starts holodeck, waits for its first model request, returns the child and its claude processes. */
async function startAndWaitForModel(args: string[], env: Record<string, string>) {
  const before = fake.allRequests.length;
  const child = spawn(process.execPath, [HOLODECK_BIN, ...args], { env: { NO_COLOR: '1', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  await until(() => fake.allRequests.length > before);
  const pid = child.pid ?? 0;
  await until(() => claudeProcesses(pid).length > 0);
  return { child, closed, claude: claudeProcesses(pid), output: () => ({ stdout, stderr }) };
}

describe.runIf(process.platform === 'linux')(
  'interrupting (SIGINT, SIGTERM): no claude process outlives holodeck',
  () => {
    it('test: the first SIGINT says it is stopping, aborts the attempts, writes the report, saves the run marked interrupted, exits 130', async () => {
      const agent = createE2eAgent(fake.url, {
        config: {
          test_cases: [
            { name: 'slow-case', input: 'a slow question', timeout: 60 },
            { name: 'quick-case', input: 'say hi', metrics: [{ type: 'contains', value: 'hello' }] },
          ],
        },
      });
      const report = path.join(agent.directory, 'out', 'report.json');
      const run = await startAndWaitForModel(
        ['test', agent.file, '--concurrency', '1', '--output', report],
        agent.env,
      );
      run.child.kill('SIGINT');
      const code = await run.closed;
      const { stderr, stdout } = run.output();
      expect(code).toBe(130);
      expect(stderr).toContain(
        'stopping (SIGINT): stopping the running attempts, then writing the report; press Ctrl+C again to quit at once',
      );
      expect(stdout).toContain('slow-case   STOPPED  the run was interrupted before this case finished');
      expect(stdout).toContain('2 cases: 0 passed, 0 failed, 0 errored, 2 stopped by the interruption');
      const json = JSON.parse(readFileSync(report, 'utf8'));
      expect(json).toMatchObject({ interrupted: true, summary: { total: 2, interrupted: 2, failed: 0 } });
      expect(json.cases[0].attempts[0]).toMatchObject({ error: 'interrupted', interrupted: true });
      const runs = readdirSync(path.join(agent.directory, '.holodeck', 'runs'));
      expect(runs).toEqual([`${json.run_id}.json`]);
      expect(stderr).toMatch(/run saved: .* \(id .*, interrupted\)/);
      await expectGone(run.claude);
    });

    it('test: a second signal exits at once, and still leaves no claude process', async () => {
      // A tool module whose close() takes 30 s keeps the clean stop busy: the second signal cuts it short.
      const agent = createE2eAgent(fake.url, {
        config: {
          tools: [
            {
              type: 'function',
              name: 'hello',
              description: 'says hi',
              file: 'tools.mjs',
              parameters: { type: 'object', properties: {} },
            },
          ],
          test_cases: [{ name: 'slow-case', input: 'a slow question', timeout: 60 }],
        },
        files: {
          'tools.mjs':
            // close() never settles and keeps the process alive: only the second signal can end it.
            'export function hello() { return "hi"; }\nexport function close() { setInterval(() => {}, 1_000); return new Promise(() => {}); }\n',
        },
      });
      const run = await startAndWaitForModel(['test', agent.file, '--no-save'], agent.env);
      run.child.kill('SIGTERM');
      // Two signals sent at once may reach the process as one: send the second once the first is seen.
      await until(() => run.output().stderr.includes('stopping (SIGTERM)'));
      run.child.kill('SIGTERM');
      expect(await run.closed).toBe(130);
      expect(run.output().stderr).toContain('stopped at once (SIGTERM again)');
      await expectGone(run.claude);
    });

    it('chat -p: SIGTERM ends the run and its claude process, exit 130', async () => {
      const agent = createE2eAgent(fake.url);
      const run = await startAndWaitForModel(['chat', agent.file, '-p', 'a slow question'], agent.env);
      run.child.kill('SIGTERM');
      expect(await run.closed).toBe(130);
      expect(run.output().stderr).toContain('stopping (SIGTERM): ending the agent run');
      await expectGone(run.claude);
      expect(existsSync(agent.file)).toBe(true);
    });
  },
);

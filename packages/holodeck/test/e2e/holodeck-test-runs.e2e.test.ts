import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { apiError, reply, respond, startFakeAnthropic, toolResults, toolUse } from '@holodeck/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAgent, runTestSuite } from '../../src/index.js';
import { createE2eAgent } from './support/e2e-agent.js';
import { runHolodeckCli } from './support/run-holodeck-cli.js';

// One stateless fake model, answering from the conversation so cases may run in any order:
// a tool result → an answer quoting it; otherwise by the user's words.
let fake: Awaited<ReturnType<typeof startFakeAnthropic>>;
beforeAll(async () => {
  fake = await startFakeAnthropic({
    repeatLast: true,
    steps: [
      respond((request) => {
        const messages = request.messagesBody?.messages ?? [];
        const first = JSON.stringify(messages[0] ?? '');
        const results = toolResults(request);
        if (results.length) {
          if (first.includes('then stall')) return reply('too late', { delayMs: 20_000 });
          return reply(
            `done: ${results.map((result) => result.text.split('<system-reminder>')[0]?.trim()).join(' | ')}`,
          );
        }
        if (first.includes('bad key'))
          return apiError(401, { type: 'authentication_error', message: 'invalid x-api-key' });
        if (first.includes('invalid call'))
          return toolUse('mcp__holodeck_tools__lookup_order', { order_id: 'nope' }, { id: 'bad-1' });
        if (first.includes('valid call') || first.includes('then stall'))
          return toolUse('mcp__holodeck_tools__lookup_order', { order_id: 'A-1001' }, { id: 'ok-1' });
        if (first.includes('echo please'))
          return toolUse('mcp__everything__echo', { message: 'ping' }, { id: 'echo-1' });
        if (first.includes('workdir')) return toolUse('Bash', { command: 'pwd && ls -A' }, { id: 'bash-1' });
        if (first.includes('slow')) return reply('eventually', { delayMs: 20_000 });
        return reply('The capital of France is Paris.');
      }),
    ],
  });
});
afterAll(() => fake.close());

const ORDERS = `export function lookupOrder({ order_id }) { return { order_id, status: 'shipped' }; }\n`;
const lookupTool = {
  type: 'function',
  name: 'lookup_order',
  description: 'Look up an order',
  file: 'orders.mjs',
  function: 'lookupOrder',
  parameters: {
    type: 'object',
    properties: { order_id: { type: 'string', pattern: '^A-[0-9]{4}$' } },
    required: ['order_id'],
  },
};
const everything = (name: string) => ({
  type: 'mcp',
  name,
  description: 'MCP reference server',
  command: process.execPath,
  args: [
    createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js'),
    'stdio',
  ],
});

function agentWith(config: Record<string, unknown>, files: Record<string, string> = {}) {
  return createE2eAgent(fake.url, {
    config: { tools: [lookupTool], ...config },
    files: { 'orders.mjs': ORDERS, ...files },
  });
}

async function reportOf(args: string[], env: Record<string, string>, file: string) {
  const outcome = await runHolodeckCli([...args, '--output', file, '--no-save'], env);
  return { outcome, report: JSON.parse(readFileSync(file, 'utf8')) };
}

describe('expected_tools counts a call only when the tool ran', () => {
  it('a call with invalid arguments does not count, and the reason says why', async () => {
    const agent = agentWith({
      test_cases: [
        { name: 'invalid', input: 'invalid call', expected_tools: ['lookup_order'] },
        { name: 'valid', input: 'valid call', expected_tools: ['lookup_order'] },
      ],
    });
    const { outcome, report } = await reportOf(
      ['test', agent.file],
      agent.env,
      path.join(agent.directory, 'r.json'),
    );
    expect(outcome.code).toBe(1);
    const [invalid, valid] = report.cases;
    expect(valid.passed).toBe(true);
    expect(invalid.passed).toBe(false);
    expect(invalid.metrics[0].reason).toBe(
      'expected lookup_order, matched 0 call(s) that ran; not counted: 1 call(s) invalid arguments (called: mcp__holodeck_tools__lookup_order (invalid arguments))',
    );
  });
});

describe('MCP tools by their short name', () => {
  it('resolves `echo` against the tools the server lists when the run starts', async () => {
    const agent = agentWith({
      tools: [everything('everything')],
      test_cases: [
        { name: 'echoes', input: 'echo please', expected_tools: ['echo'], forbidden_tools: ['get-sum'] },
      ],
    });
    const { outcome, report } = await reportOf(
      ['test', agent.file],
      agent.env,
      path.join(agent.directory, 'r.json'),
    );
    expect(outcome.code).toBe(0);
    expect(report.cases[0].metrics[0]).toMatchObject({ passed: true });
  });

  it('an unknown short name is an error listing the real tools; a shared one names both servers', async () => {
    const unknown = agentWith({
      tools: [everything('everything')],
      test_cases: [{ name: 'typo', input: 'echo please', expected_tools: ['ech'] }],
    });
    const before = fake.allRequests.length;
    const outcome = await runHolodeckCli(['test', unknown.file, '--no-save'], unknown.env);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toMatch(
      new RegExp(
        `^1 problem in agent configuration:\\n${unknown.file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+  test_cases\\[0\\]\\.expected_tools\\[0\\]: test case "typo" expects unknown tool "ech"\\n    hint: the agent has: .*mcp__everything__echo`,
      ),
    );
    expect(fake.allRequests.length).toBe(before);

    const shared = agentWith({
      tools: [everything('first'), everything('second')],
      test_cases: [{ name: 'ambiguous', input: 'echo please', expected_tools: ['echo'] }],
    });
    const twice = await runHolodeckCli(['test', shared.file, '--no-save'], shared.env);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain(
      'test case "ambiguous" names tool "echo", which MCP servers "first" and "second" both have\n    hint: write the full name: mcp__first__echo or mcp__second__echo',
    );
  });
});

describe('selection and output', () => {
  const cases = [
    { name: 'capital-ok', tags: ['geo'], input: 'capital?', metrics: [{ type: 'contains', value: 'Paris' }] },
    { name: 'capital-other', tags: ['geo', 'smoke'], input: 'capital?' },
  ];

  it('--filter or --tag that selects nothing exits 2 naming the cases and tags, and runs nothing', async () => {
    const agent = agentWith({ test_cases: cases });
    const before = fake.allRequests.length;
    const filtered = await runHolodeckCli(['test', agent.file, '--filter', 'captial'], agent.env);
    expect(filtered).toMatchObject({ code: 2, stdout: '' });
    expect(filtered.stderr).toBe(
      'error --filter: --filter "captial" matches no test case\n    hint: the cases are capital-ok, capital-other; their tags: geo, smoke\n',
    );
    const tagged = await runHolodeckCli(['test', agent.file, '--tag', 'smok'], agent.env);
    expect(tagged.stderr).toBe(
      'error --tag: --tag smok matches no test case\n    hint: the cases are capital-ok, capital-other; their tags: geo, smoke\n',
    );
    expect(fake.allRequests.length).toBe(before);
  });

  it('--output into folders that do not exist creates them; a path that cannot be written fails before the run', async () => {
    const agent = agentWith({ test_cases: [cases[0]] });
    const nested = path.join(agent.directory, 'reports', 'ci', 'run.xml');
    const written = await runHolodeckCli(['test', agent.file, '--output', nested, '--no-save'], agent.env);
    expect(written.code).toBe(0);
    expect(readFileSync(nested, 'utf8')).toMatch(/^<\?xml/);

    writeFileSync(path.join(agent.directory, 'a-file'), 'x');
    const before = fake.allRequests.length;
    const blocked = path.join(agent.directory, 'a-file', 'report.json');
    const refused = await runHolodeckCli(['test', agent.file, '--output', blocked], agent.env);
    expect(refused).toMatchObject({ code: 2, stdout: '' });
    expect(refused.stderr).toBe(
      `error --output: cannot create the folder ${path.dirname(blocked)}: a file is in the way\n`,
    );
    mkdirSync(path.join(agent.directory, 'a-folder.json'));
    const folder = await runHolodeckCli(
      ['test', agent.file, '--output', path.join(agent.directory, 'a-folder.json')],
      agent.env,
    );
    expect(folder.stderr).toBe(
      `error --output: ${path.join(agent.directory, 'a-folder.json')} is a folder\n    hint: give the path of a report file, e.g. report.xml\n`,
    );
    expect(fake.allRequests.length).toBe(before);
  });
});

describe('runs that fail part way', () => {
  it('a timed-out attempt keeps its tool calls and tokens, and its duration is its own run time', async () => {
    // 8 s: enough for the CLI to start and make its tool call on a loaded machine; the model then stalls.
    const agent = agentWith({ test_cases: [{ name: 'stalls', input: 'valid call then stall', timeout: 8 }] });
    const { report } = await reportOf(
      ['test', agent.file, '--concurrency', '1'],
      agent.env,
      path.join(agent.directory, 'r.json'),
    );
    const [attempt] = report.cases[0].attempts;
    expect(attempt.error).toBe('timed out after 8 s');
    expect(attempt.tool_calls).toEqual([
      { name: 'mcp__holodeck_tools__lookup_order', arguments: { order_id: 'A-1001' }, call_id: 'ok-1' },
    ]);
    expect(attempt.token_usage.total_tokens).toBeGreaterThan(0);
    expect(attempt.cost_usd).toBeNull();
    expect(attempt.cost_unknown_reason).toBe('the run stopped before the Claude CLI reported its cost');
    // Its own run time: from its start to the timeout, not the whole run's (start-up, report).
    expect(attempt.duration_ms).toBeGreaterThanOrEqual(8000);
    expect(attempt.duration_ms).toBeLessThan(report.summary.duration_ms);
  });

  it('a 401 stops the run at the first failure, naming the variable, and exits 2', async () => {
    const agent = agentWith({
      test_cases: [
        { name: 'first', input: 'bad key 1' },
        { name: 'second', input: 'bad key 2' },
        { name: 'third', input: 'bad key 3' },
      ],
    });
    const before = fake.allRequests.length;
    const outcome = await runHolodeckCli(['test', agent.file, '--concurrency', '1', '--no-save'], agent.env);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toMatch(
      /error the model API rejected the credentials in test case "first": authentication failed: check ANTHROPIC_API_KEY.*\nThe run was stopped there; nothing after it ran\.\n$/s,
    );
    expect(fake.allRequests.length - before).toBe(1);
  });
});

describe('--allow-side-effects copies', () => {
  const files = {
    'work/notes.txt': 'keep',
    'work/.gitignore': 'build/\n*.log\n',
    'work/build/out.bin': 'x',
    'work/debug.log': 'x',
    'work/node_modules/dep/index.js': 'x',
  };
  const config = {
    tools: [],
    claude: {
      working_directory: 'work',
      permission_mode: 'acceptAll',
      acknowledge_accept_all: true,
      bash: { enabled: true },
    },
    test_cases: [{ name: 'lists', input: 'workdir please' }],
  };

  it('copy only the working directory, without node_modules and what .gitignore ignores, and are removed at the end', async () => {
    const agent = createE2eAgent(fake.url, { config, files });
    const { report } = await reportOf(
      ['test', agent.file, '--allow-side-effects'],
      agent.env,
      path.join(agent.directory, 'r.json'),
    );
    const listing = String(report.cases[0].response)
      .replace(/^done: /, '')
      .split('\n');
    const [copy, ...entries] = listing;
    expect(copy).toMatch(/holodeck-case-/);
    expect(entries.sort()).toEqual(['.gitignore', 'notes.txt']);
    expect(existsSync(copy ?? '')).toBe(false);
  });

  it('--keep-workdirs keeps them and says where', async () => {
    const agent = createE2eAgent(fake.url, { config, files });
    const outcome = await runHolodeckCli(
      ['test', agent.file, '--allow-side-effects', '--keep-workdirs', '--copy-ignored', '--no-save'],
      agent.env,
    );
    const kept = /note kept the per-case working directories: (\S+)/.exec(outcome.stderr)?.[1] ?? '';
    expect(existsSync(path.join(kept, 'node_modules', 'dep', 'index.js'))).toBe(true);
    expect(existsSync(path.join(kept, 'debug.log'))).toBe(true);
  });
});

describe('runTestSuite from the library', () => {
  it('runs a suite with the CLI options and returns the report', async () => {
    const agent = agentWith({
      test_cases: [
        {
          name: 'capital',
          tags: ['geo'],
          input: 'capital?',
          metrics: [{ type: 'contains', value: 'Paris' }],
        },
        { name: 'other', input: 'capital?' },
      ],
    });
    const loaded = await loadAgent(agent.file, { env: agent.env, homeDir: agent.env.HOME ?? '' });
    const report = await runTestSuite(loaded, { tags: ['geo'], repeat: 2, concurrency: 2 });
    expect(report.summary).toMatchObject({ total: 1, passed: 1 });
    expect(report.cases[0]).toMatchObject({ name: 'capital', pass_at_k: 1, pass_pow_k: 1 });
    expect(report.cases[0]?.attempts).toHaveLength(2);
  });
});

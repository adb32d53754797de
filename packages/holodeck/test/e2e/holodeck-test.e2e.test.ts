import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { apiError, reply, respond, startFakeAnthropic, toolResults, toolUse } from '@holodeck/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createE2eAgent } from './support/e2e-agent.js';
import { runHolodeckCli } from './support/run-holodeck-cli.js';

// One stateless fake model for the file: it answers from the user message, so cases may run
// concurrently in any order. "capital" → Paris; "broken" → an API error; "slow" → a late answer.
let fake: Awaited<ReturnType<typeof startFakeAnthropic>>;
beforeAll(async () => {
  fake = await startFakeAnthropic({
    repeatLast: true,
    steps: [
      respond((request) => {
        const text = JSON.stringify(request.messagesBody?.messages?.at(-1) ?? '');
        if (text.includes('broken'))
          return apiError(400, { type: 'invalid_request_error', message: 'scripted failure' });
        if (text.includes('slow')) return reply('eventually', { delayMs: 8_000 });
        if (text.includes('capital')) return reply('The capital of France is Paris.');
        return reply('I do not know.');
      }),
    ],
  });
});
afterAll(() => fake.close());

const cases = [
  {
    name: 'capital-ok',
    tags: ['geo'],
    input: 'What is the capital of France?',
    metrics: [{ type: 'contains', value: 'Paris' }],
  },
  {
    name: 'capital-wrong',
    tags: ['geo'],
    input: 'What is the capital of France?',
    metrics: [{ type: 'contains', value: 'Lyon' }],
  },
  { name: 'broken-run', input: 'This request is broken.' },
  { name: 'slow-run', input: 'A slow question', timeout: 2 },
];

function suite(extra: Record<string, unknown> = {}) {
  return createE2eAgent(fake.url, { config: { test_cases: cases, ...extra } });
}

describe('holodeck test', () => {
  it('reports passes, failures, errors and timeouts, keeps going, and exits 1', async () => {
    const agent = suite();
    const report = path.join(agent.directory, 'report.json');
    const junit = path.join(agent.directory, 'report.xml');
    const outcome = await runHolodeckCli(['test', agent.file, '--output', report], agent.env);
    expect(outcome.code).toBe(1);
    const json = JSON.parse(readFileSync(report, 'utf8'));
    expect(json.summary).toMatchObject({ total: 4, passed: 1, failed: 1, errored: 2 });
    const byName = Object.fromEntries(json.cases.map((c: { name: string }) => [c.name, c]));
    expect(byName['capital-wrong'].metrics[0]).toMatchObject({
      passed: false,
      reason: 'the response contains none of "Lyon"',
    });
    expect(byName['broken-run'].error).toContain('scripted failure');
    expect(byName['slow-run'].error).toBe('timed out after 2 s');
    // Plain progress lines (not a TTY), then the summary table on stdout.
    expect(outcome.stderr).toMatch(/^FAIL {2}capital-wrong/m);
    expect(outcome.stdout).toMatch(/4 cases: 1 passed, 1 failed, 2 errored/);
    // Every run is saved.
    const runs = readdirSync(path.join(agent.directory, '.holodeck', 'runs'));
    expect(runs).toEqual([`${json.run_id}.json`]);
    // JUnit from the saved run's numbers.
    await runHolodeckCli(
      ['test', agent.file, '--filter', 'capital-*', '--output', junit, '--no-save'],
      agent.env,
    );
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuite [^>]*tests="2"[^>]*failures="1"[^>]*errors="0"/);
    expect(readdirSync(path.join(agent.directory, '.holodeck', 'runs'))).toHaveLength(1);
  });

  it('selects with --tag and --shard, repeats with pass@k/pass^k, and compares with a baseline', async () => {
    const agent = suite();
    const firstReport = path.join(agent.directory, 'first.json');
    const first = await runHolodeckCli(
      ['test', agent.file, '--tag', 'geo', '--output', firstReport],
      agent.env,
    );
    expect(first.stdout).toMatch(/2 cases: 1 passed, 1 failed, 0 errored/);
    const shard = await runHolodeckCli(
      ['test', agent.file, '--shard', '2/2', '--tag', 'geo', '--no-save'],
      agent.env,
    );
    expect(shard.stdout).toMatch(/1 case: 0 passed, 1 failed/);
    const repeated = path.join(agent.directory, 'repeat.json');
    await runHolodeckCli(
      [
        'test',
        agent.file,
        '--filter',
        'capital-ok',
        '--repeat',
        '2',
        '--output',
        repeated,
        '--baseline',
        'latest',
      ],
      agent.env,
    );
    const report = JSON.parse(readFileSync(repeated, 'utf8'));
    expect(report.cases[0]).toMatchObject({ name: 'capital-ok', pass_rate: 1, pass_at_k: 1, pass_pow_k: 1 });
    expect(report.cases[0].attempts).toHaveLength(2);
  });

  it('runs the same suite with --isolation session (warm processes reused with /clear)', async () => {
    const agent = suite();
    const outcome = await runHolodeckCli(
      ['test', agent.file, '--tag', 'geo', '--isolation', 'session', '--concurrency', '1', '--no-save'],
      agent.env,
    );
    expect(outcome.stdout).toMatch(/2 cases: 1 passed, 1 failed/);
    const clears = fake.requests.filter((request) =>
      JSON.stringify(request.body).includes('<command-name>/clear</command-name>'),
    );
    expect(clears.length).toBeGreaterThanOrEqual(1);
  });

  it('disables side-effect tools unless --allow-side-effects, and says so', async () => {
    const agent = suite({ claude: { bash: { enabled: true } }, test_cases: [cases[0]] });
    const outcome = await runHolodeckCli(['test', agent.file, '--no-save'], agent.env);
    expect(outcome.code).toBe(0);
    expect(outcome.stderr).toContain(
      'note claude.bash disabled for this test run; pass --allow-side-effects to enable (each case then gets its own copy of the working directory)',
    );
    const last = fake.requests.at(-1);
    expect(JSON.stringify(last?.messagesBody?.tools ?? [])).not.toContain('"Bash"');
  });

  it('with --allow-side-effects, runs each case in its own copy of the working directory', async () => {
    // Its own model: a Bash call, then an answer quoting where the command ran.
    const model = await startFakeAnthropic({
      steps: [
        toolUse('Bash', { command: 'echo changed > original.txt && pwd' }, { id: 'b1' }),
        respond((request) =>
          reply(`done in ${toolResults(request)[0]?.text.split('<system-reminder>')[0]?.trim()}`),
        ),
      ],
    });
    const agent = createE2eAgent(model.url, {
      config: {
        claude: {
          working_directory: 'work',
          permission_mode: 'acceptAll',
          acknowledge_accept_all: true,
          bash: { enabled: true },
        },
        test_cases: [
          { name: 'writes-a-file', input: 'bash please', metrics: [{ type: 'icontains', value: 'done' }] },
        ],
      },
      files: { 'work/original.txt': 'keep me' },
    });
    const report = path.join(agent.directory, 'side-effects.json');
    const outcome = await runHolodeckCli(
      ['test', agent.file, '--allow-side-effects', '--no-save', '--output', report],
      agent.env,
    );
    expect(outcome.stderr).toContain(
      'side effects allowed (claude.bash): each test case runs in its own copy of the working directory',
    );
    const json = JSON.parse(readFileSync(report, 'utf8'));
    expect(json.cases[0].passed).toBe(true);
    expect(json.cases[0].response).toMatch(/^done in \/tmp\/holodeck-case-/);
    expect(readFileSync(path.join(agent.directory, 'work', 'original.txt'), 'utf8')).toBe('keep me');
    model.assertComplete();
    await model.close();
  });

  it('exits 2 for a bad suite: unknown tool in expectations, bad shard', async () => {
    const agent = suite({ test_cases: [{ name: 'x', input: 'hi', expected_tools: ['lookup_ordr'] }] });
    const outcome = await runHolodeckCli(['test', agent.file], agent.env);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain(
      `${agent.file}:11:9  test_cases[0].expected_tools[0]: test case "x" expects unknown tool "lookup_ordr"\n    hint: the agent has no tools`,
    );
    const shard = await runHolodeckCli(['test', suite().file, '--shard', '3/2'], agent.env);
    expect(shard.code).toBe(2);
    expect(shard.stderr).toContain('error --shard: invalid shard "3/2"');
  });
});

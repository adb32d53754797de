import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { backendVariants, type ModelAnswer, type SeenRequest } from '../both-backends/backend-variants.js';
import { favourableVerdict } from '../both-backends/favourable-verdict.js';
import { TEST_API_KEY } from '../support/e2e-agent.js';
import { runHolodeckCli } from '../support/run-holodeck-cli.js';

// Record a suite live against the fake model as the "upstream", stop the fake, replay: the real
// Claude CLI / the real AI SDK run again, only the model (agent loop and judges) is answered from
// the recording.

const ORDERS = `export const lookupOrder = ({ order_id }) => ({ order_id, status: 'shipped', carrier: 'DHL' });`;
const LOOKUP = {
  type: 'function',
  name: 'lookup_order',
  description: 'lookup_order of the shop',
  file: 'orders.mjs',
  function: 'lookupOrder',
  parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
};

function shopModel(request: SeenRequest): ModelAnswer {
  if (request.verdictSchema) return { kind: 'verdict', verdict: favourableVerdict(request.verdictSchema) };
  const result = request.toolResults.at(-1);
  if (result) return { kind: 'reply', text: 'Your order has shipped with DHL.' };
  const order = /A-\d{4}/.exec(request.lastUserText)?.[0];
  if (order) return { kind: 'tool', name: 'lookup_order', args: { order_id: order } };
  return { kind: 'reply', text: 'Opened electronics can be returned within 14 days for a full refund.' };
}

const CASES = [
  {
    name: 'shipped-order',
    input: 'Where is my order A-1001?',
    expected_tools: [{ name: 'lookup_order', args: { order_id: 'A-1001' } }],
    metrics: [
      { type: 'contains', value: 'shipped' },
      { type: 'g-eval', name: 'helpful', criteria: 'The answer says where the order is.', threshold: 0.5 },
    ],
  },
  {
    name: 'returns-policy',
    input: 'Can I return an opened charger?',
    context: ['Opened electronics can be returned within 14 days for a full refund.'],
    forbidden_tools: ['lookup_order'],
    metrics: [{ type: 'faithfulness' }],
  },
  { name: 'greeting', input: 'Hello!', forbidden_tools: ['lookup_order'] },
];

interface ReportCase {
  name: string;
  passed: boolean;
  score: number;
  error?: string;
  tool_calls: { name: string; arguments: unknown }[];
  metrics: { name: string; score: number; passed: boolean }[];
}

function verdicts(file: string) {
  const report = JSON.parse(readFileSync(file, 'utf8')) as { cases: ReportCase[] };
  return report.cases.map((entry) => ({
    name: entry.name,
    passed: entry.passed,
    score: entry.score,
    error: entry.error,
    tools: entry.tool_calls.map((call) => ({ name: call.name, arguments: call.arguments })),
    metrics: entry.metrics.map((metric) => ({
      name: metric.name,
      score: metric.score,
      passed: metric.passed,
    })),
  }));
}

function recordedBytes(directory: string): Map<string, string> {
  return new Map(
    readdirSync(directory).map((name) => [name, readFileSync(path.join(directory, name), 'utf8')]),
  );
}

function withoutKey(env: Record<string, string>): Record<string, string> {
  const { ANTHROPIC_API_KEY: _anthropic, OPENAI_API_KEY: _openai, ...rest } = env;
  return rest;
}

describe.each(backendVariants())('record and replay on the $name backend', (variant) => {
  beforeAll(() => variant.start());
  afterEach(() => variant.discardScript());
  afterAll(() => variant.close());

  it('replays a recorded suite with no network and no key: same verdicts, tool calls and scores', async () => {
    variant.script(...Array.from({ length: 40 }, () => variant.respond(shopModel)));
    const agent = variant.agent({ tools: [LOOKUP], test_cases: CASES }, { 'orders.mjs': ORDERS });
    const work = mkdtempSync(path.join(tmpdir(), 'record-replay-'));
    const recordings = path.join(agent.directory, '.holodeck', 'recordings');
    const live = path.join(work, 'live.json');
    const recorded = await runHolodeckCli(
      ['test', agent.file, '--record', '--no-save', '-o', live],
      agent.env,
    );
    expect(recorded.stderr).toContain('recorded ');
    expect(recorded.code).toBe(0);
    const liveRequests = variant.requests().length;
    expect(liveRequests).toBeGreaterThan(3);
    const files = recordedBytes(recordings);
    expect([...files.values()].map((text) => JSON.parse(text).case).sort()).toEqual([
      'greeting',
      'returns-policy',
      'shipped-order',
    ]);
    // No secret in any recorded byte.
    for (const text of files.values()) expect(text).not.toContain(TEST_API_KEY);
    const shipped = [...files.values()]
      .map((text) => JSON.parse(text))
      .find((file) => file.case === 'shipped-order');
    expect(shipped.exchanges.map((exchange: { source: string }) => exchange.source)).toContain('judge');
    expect(shipped.tool_calls).toEqual([
      expect.objectContaining({ attempt: 1, turn: 1, arguments: { order_id: 'A-1001' }, is_error: false }),
    ]);

    // Stop the upstream: any request that went live would now fail.
    await variant.close();
    const replay = path.join(work, 'replay.json');
    const replayed = await runHolodeckCli(
      ['test', agent.file, '--replay', '--no-save', '-o', replay],
      withoutKey(agent.env),
    );
    expect(replayed.stderr).toContain('no request went to the network');
    expect(replayed.code).toBe(0);
    expect(verdicts(replay)).toEqual(verdicts(live));
    await variant.start();
  });

  it('a recorded run enters no AsyncLocalStorage (on Node 20 it would hook every promise of the run)', async () => {
    variant.script(...Array.from({ length: 20 }, () => variant.respond(shopModel)));
    const agent = variant.agent({ tools: [LOOKUP], test_cases: CASES }, { 'orders.mjs': ORDERS });
    const work = mkdtempSync(path.join(tmpdir(), 'record-no-als-'));
    // Loaded into every Node process of the run; HoloDeck's own one reports what was entered.
    const probe = path.join(work, 'probe.mjs');
    const report = path.join(work, 'entered.json');
    writeFileSync(
      probe,
      `import { AsyncLocalStorage } from 'node:async_hooks';
import { writeFileSync } from 'node:fs';
const entered = [];
for (const method of ['run', 'enterWith']) {
  const original = AsyncLocalStorage.prototype[method];
  AsyncLocalStorage.prototype[method] = function (...args) { entered.push(method); return original.apply(this, args); };
}
if (process.argv[1]?.endsWith('holodeck.js'))
  process.on('exit', () => writeFileSync(${JSON.stringify(report)}, JSON.stringify(entered)));
`,
    );
    const recorded = await runHolodeckCli(
      ['test', agent.file, '--record', path.join(work, 'recordings'), '--no-save'],
      { ...agent.env, NODE_OPTIONS: `--import=${probe}` },
    );
    expect(recorded.code).toBe(0);
    const files = readdirSync(path.join(work, 'recordings')).map((name) => name.split('.')[0]);
    expect(files.sort()).toEqual(['greeting', 'returns-policy', 'shipped-order']);
    expect(JSON.parse(readFileSync(report, 'utf8'))).toEqual([]);
  });

  it('re-recording an unchanged suite against the deterministic fake changes no byte', async () => {
    // Fixed usage: the fake's estimate follows the request's length, and a CLI started early (a
    // spare) runs in a working directory whose path has another length than a case's own.
    const fixedUsage = (request: SeenRequest): ModelAnswer => ({
      ...shopModel(request),
      tokens: { input: 600, output: 10 },
    });
    variant.script(...Array.from({ length: 80 }, () => variant.respond(fixedUsage)));
    const agent = variant.agent({ tools: [LOOKUP], test_cases: CASES }, { 'orders.mjs': ORDERS });
    const recordings = path.join(agent.directory, '.holodeck', 'recordings');
    const first = await runHolodeckCli(['test', agent.file, '--record', '--no-save'], agent.env);
    expect(first.code).toBe(0);
    const before = recordedBytes(recordings);
    const refused = await runHolodeckCli(['test', agent.file, '--record', '--no-save'], agent.env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('already have recordings');
    expect(refused.stderr).toContain('add --re-record to replace them');
    const again = await runHolodeckCli(
      ['test', agent.file, '--record', '--re-record', '--no-save'],
      agent.env,
    );
    expect(again.code).toBe(0);
    expect(recordedBytes(recordings)).toEqual(before);
  });

  it('a changed instruction makes the replay error with the first difference, and exit 1 with the count', async () => {
    variant.script(...Array.from({ length: 10 }, () => variant.respond(shopModel)));
    const cases = [{ name: 'greeting', input: 'Hello!' }];
    const agent = variant.agent({ test_cases: cases });
    expect((await runHolodeckCli(['test', agent.file, '--record', '--no-save'], agent.env)).code).toBe(0);
    const yaml = readFileSync(agent.file, 'utf8');
    writeFileSync(agent.file, yaml.replace('Answer briefly.', 'Answer at length.'));
    await variant.close();
    const replayed = await runHolodeckCli(
      ['test', agent.file, '--replay', '--no-save'],
      withoutKey(agent.env),
    );
    await variant.start();
    expect(replayed.code).toBe(1);
    const at = variant.name === 'claude' ? 'system[1].text' : 'messages[0].content';
    expect(replayed.stdout + replayed.stderr).toContain(
      `no recording for greeting attempt 1 turn 1 request 1: differs from the nearest recording at ${at}: "You are the e2e test agent. Answer at length." vs "You are the e2e test agent. Answer briefly."`,
    );
    // The Claude CLI asks again after the error answer: each request without a recording counts.
    expect(replayed.stderr).toMatch(
      /replay: [1-9]\d* request\(s\) had no recording in .* \(their cases errored\)/,
    );
  });

  it('--replay --record-missing records only the requests with no recording and keeps the rest', async () => {
    variant.script(...Array.from({ length: 10 }, () => variant.respond(shopModel)));
    const agent = variant.agent({ test_cases: [{ name: 'greeting', input: 'Hello!' }] });
    expect((await runHolodeckCli(['test', agent.file, '--record', '--no-save'], agent.env)).code).toBe(0);
    const folder = path.join(agent.directory, '.holodeck', 'recordings');
    const first = recordedBytes(folder);
    variant.discardScript();
    variant.script(...Array.from({ length: 10 }, () => variant.respond(shopModel)));
    const yaml = readFileSync(agent.file, 'utf8');
    writeFileSync(
      agent.file,
      yaml.replace(
        '  - name: greeting',
        '  - name: new-case\n    input: Can I return an opened charger?\n  - name: greeting',
      ),
    );
    const missing = await runHolodeckCli(
      ['test', agent.file, '--replay', '--record-missing', '--no-save'],
      agent.env,
    );
    expect(missing.code).toBe(0);
    // Only the new case reached the model.
    expect(variant.requests().map((request) => request.lastUserText)).toEqual(
      variant.requests().map(() => 'Can I return an opened charger?'),
    );
    expect(variant.requests().length).toBeGreaterThan(0);
    const after = recordedBytes(folder);
    expect(after.size).toBe(first.size + 1);
    for (const [name, text] of first) expect(after.get(name)).toBe(text);
    await variant.close();
    const replayed = await runHolodeckCli(
      ['test', agent.file, '--replay', '--no-save'],
      withoutKey(agent.env),
    );
    await variant.start();
    expect(replayed.code).toBe(0);
    expect(replayed.stdout).toContain('2 passed');
  });
});

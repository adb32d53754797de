import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { backendVariants, type ModelAnswer, type SeenRequest } from './both-backends/backend-variants.js';
import { runHolodeckCli } from './support/run-holodeck-cli.js';

// limits: through `holodeck test` on both backends: the real agent loop is stopped in flight when
// an attempt crosses a limit (the fake model gets no request after it), the attempt fails with the
// limit as its reason in the terminal, the JSON and the JUnit report, and the run exits 1.

const SHOP = [
  'export function lookupOrder({ order_id }) { return { order_id, status: "delivered" }; }',
  'export function refundOrder({ order_id }) { return { order_id, refunded: true }; }',
].join('\n');
const tool = (name: string, fn: string) => ({
  type: 'function',
  name,
  description: `${name} of the shop`,
  file: 'shop.mjs',
  function: fn,
  parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
});
const TOKENS = { input: 1000, output: 200 };

/** Looks the order up, refunds it, then answers: three responses of 1,200 tokens each. */
function model(request: SeenRequest): ModelAnswer {
  if (request.toolResults.length === 0)
    return { kind: 'tool', name: 'lookup_order', args: { order_id: 'A-1' }, tokens: TOKENS };
  if (request.toolResults.length === 1)
    return { kind: 'tool', name: 'refund_order', args: { order_id: 'A-1' }, tokens: TOKENS };
  return { kind: 'reply', text: 'Order A-1 is refunded.', tokens: TOKENS };
}

interface Stopped {
  passed: boolean;
  error?: string;
  stopped?: { limit: string; max: number; reached: number; reason: string };
  metrics: { type: string; reason: string }[];
  tool_calls: { name: string }[];
  token_usage: { total_tokens: number };
}

describe.each(backendVariants())('limits: on the $name backend', (variant) => {
  beforeAll(() => variant.start());
  afterEach(() => variant.discardScript());
  afterAll(() => variant.close());

  async function runLimited(limits: Record<string, number>, extra: Record<string, unknown> = {}) {
    variant.script(...Array.from({ length: 4 }, () => variant.respond(model)));
    const agent = variant.agent(
      {
        tools: [tool('lookup_order', 'lookupOrder'), tool('refund_order', 'refundOrder')],
        test_cases: [{ name: 'refund', input: 'Refund order A-1', limits }],
        ...extra,
      },
      { 'shop.mjs': SHOP },
    );
    const json = path.join(agent.directory, 'report.json');
    const junit = path.join(agent.directory, 'report.xml');
    const outcome = await runHolodeckCli(['test', agent.file, '-o', json, '-o', junit, '--no-save'], {
      ...agent.env,
      NO_COLOR: '1',
    });
    const report = JSON.parse(readFileSync(json, 'utf8'));
    const attempt: Stopped = report.cases[0].attempts[0];
    return { outcome, report, attempt, junit: readFileSync(junit, 'utf8'), requests: variant.requests() };
  }

  function expectStopped(run: Awaited<ReturnType<typeof runLimited>>, reason: string, requests: number) {
    expect(run.outcome.code, run.outcome.stderr).toBe(1);
    expect(run.requests).toHaveLength(requests);
    expect(run.attempt.passed).toBe(false);
    expect(run.attempt.error).toBeUndefined();
    expect(run.attempt.stopped?.reason).toBe(reason);
    expect(run.attempt.metrics).toEqual([
      { name: 'limits', type: 'limits', score: 0, passed: false, reason },
    ]);
    // Failed, not errored: the attempt ran and went past what the case allows.
    expect(run.report.summary).toMatchObject({ total: 1, passed: 0, failed: 1, errored: 0 });
    expect(run.outcome.stdout + run.outcome.stderr).toContain(reason);
    expect(run.junit).toContain(reason);
  }

  it('tool_calls: stops at the call past the limit, before the model is asked again', async () => {
    const run = await runLimited({ tool_calls: 1 });
    expectStopped(run, 'stopped: tool_calls limit 1 reached (2)', 2);
    expect(run.attempt.stopped).toMatchObject({ limit: 'tool_calls', max: 1, reached: 2 });
    expect(run.attempt.tool_calls.map((call) => call.name.replace(/^mcp__holodeck_tools__/, ''))).toEqual([
      'lookup_order',
      'refund_order',
    ]);
  });

  it('messages: stops when the last allowed response calls tools', async () => {
    const run = await runLimited({ messages: 1 });
    expectStopped(
      run,
      'stopped: messages limit 1 reached (1, the last calling tools, so the agent wanted another)',
      1,
    );
  });

  it('tokens: stops once the responses so far pass the limit, each counted once', async () => {
    const run = await runLimited({ tokens: 1500 });
    // Claude: the second response's input tokens (and the 1 output token of its start) are known
    // when it starts streaming; the AI SDK reports a step's usage when the step ends.
    const reached = variant.name === 'claude' ? 2201 : 2400;
    expectStopped(run, `stopped: tokens limit 1500 reached (${reached})`, 2);
    expect(run.attempt.token_usage.total_tokens).toBeGreaterThanOrEqual(reached);
  });

  it('cost: stops once the cost so far, at the pricing: prices, passes the limit', async () => {
    const run = await runLimited(
      { cost: 0.01 },
      { pricing: { input_per_million: 3, output_per_million: 15 } },
    );
    // Each response: 1,000 × $3 + 200 × $15 per million = $0.006; two are $0.012.
    expectStopped(run, 'stopped: cost limit $0.01 reached ($0.012)', 2);
  });

  it('a run within its limits passes, its totals the sum over every response', async () => {
    const run = await runLimited({ tokens: 10_000, messages: 3, tool_calls: 2 });
    expect(run.outcome.code, run.outcome.stderr).toBe(0);
    expect(run.requests).toHaveLength(3);
    expect(run.attempt.stopped).toBeUndefined();
    expect(run.attempt.token_usage.total_tokens).toBe(3 * 1200);
  });
});

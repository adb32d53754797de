import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { backendVariants, type ModelAnswer, type SeenRequest } from '../both-backends/backend-variants.js';
import { governedShopConfig, governedShopFiles } from '../support/governance-fixtures.js';
import { runHolodeckCli } from '../support/run-holodeck-cli.js';

// Governed runs replay identically: Novarch runs live in replay (only the model is replayed), so
// the same tool calls meet the same rules: a pass, a kill, a hold that times out.

const CONFIG = {
  ...governedShopConfig(),
  test_cases: [
    {
      name: 'small-refund',
      input: 'A-10 20',
      expected_verdicts: [{ tool: 'refund_order', verdict: 'pass' }],
      expect_killed: false,
    },
    {
      name: 'no-lookup',
      input: 'A-11 20 nolookup',
      expected_verdicts: [{ tool: 'refund_order', verdict: 'kill' }],
      expect_killed: true,
    },
    {
      name: 'big-refund-held',
      input: 'A-12 900',
      expected_verdicts: [{ tool: 'refund_order', verdict: 'hold', hold_status: 'timed_out' }],
      expect_killed: true,
    },
  ],
};
const FILES = governedShopFiles();

/** "<order> <amount> [nolookup]" → lookup (unless nolookup), then refund, then done. */
function refundModel(request: SeenRequest): ModelAnswer {
  const [, order = 'A-0', amount = '0', flag] = /(A-\d+) (\d+)( nolookup)?/.exec(request.conversation) ?? [];
  const nolookup = flag !== undefined;
  // The conversation so far (messages only) names each tool once it was called.
  if (!nolookup && !request.conversation.includes('lookup_order'))
    return { kind: 'tool', name: 'lookup_order', args: { order_id: order } };
  if (!request.conversation.includes('refund_order'))
    return { kind: 'tool', name: 'refund_order', args: { order_id: order, amount: Number(amount) } };
  return { kind: 'reply', text: 'done' };
}

function governance(file: string) {
  const json = JSON.parse(readFileSync(file, 'utf8'));
  return json.cases.map(
    (entry: {
      name: string;
      passed: boolean;
      tool_calls: { name: string; arguments: unknown }[];
      attempts: {
        governance?: {
          killed?: boolean;
          verdicts: { verdict: string; rule_ids?: string[]; hold_status?: string }[];
        };
      }[];
    }) => ({
      name: entry.name,
      passed: entry.passed,
      tools: entry.tool_calls.map((call) => [call.name, call.arguments]),
      killed: entry.attempts[0]?.governance?.killed,
      verdicts: entry.attempts[0]?.governance?.verdicts.map((verdict) => ({
        verdict: verdict.verdict,
        rule_ids: verdict.rule_ids,
        hold_status: verdict.hold_status,
      })),
    }),
  );
}

describe.each(backendVariants())('governed runs replayed on the $name backend', (variant) => {
  beforeAll(() => variant.start());
  afterEach(() => variant.discardScript());
  afterAll(() => variant.close());

  it('a pass, a kill and a timed-out hold replay with the same verdicts', async () => {
    variant.script(...Array.from({ length: 30 }, () => variant.respond(refundModel)));
    const agent = variant.agent(CONFIG, FILES);
    const live = path.join(agent.directory, 'live.json');
    const recorded = await runHolodeckCli(
      ['test', agent.file, '--record', '--no-save', '-o', live, '-c', '1'],
      agent.env,
    );
    expect(recorded.code, recorded.stdout + recorded.stderr).toBe(0);
    await variant.close();
    const replay = path.join(agent.directory, 'replay.json');
    const replayed = await runHolodeckCli(
      ['test', agent.file, '--replay', '--no-save', '-o', replay, '-c', '1'],
      agent.env,
    );
    await variant.start();
    expect(replayed.code, replayed.stdout + replayed.stderr).toBe(0);
    expect(replayed.stderr).toContain('no request went to the network');
    const expected = governance(live);
    expect(
      expected.map((entry: { verdicts: { verdict: string }[] }) => entry.verdicts.map((v) => v.verdict)),
    ).toEqual([['pass'], ['kill'], ['hold']]);
    expect(governance(replay)).toEqual(expected);
    // The refunds Novarch let through ran again (tools run live in replay): twice the small one.
    expect(readFileSync(path.join(agent.directory, 'refunds.log'), 'utf8')).toBe('A-10 20\nA-10 20\n');
  });
});

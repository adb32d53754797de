import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { reply, respond, toolResults, toolUse, toolUses } from '@holodeck/testkit';
import { openSqliteStore } from 'novarch';
import { describe, expect, it } from 'vitest';
import { createE2eAgent } from './support/e2e-agent.js';
import { governedShopConfig, governedShopFiles } from './support/governance-fixtures.js';
import { runHolodeckCli } from './support/run-holodeck-cli.js';
import { useFakeModel } from './support/use-fake-model.js';

const fake = useFakeModel();

const SHOP = { lookupResult: "{ order_id, customer: 'C-7', status: 'delivered' }" };

function governedAgent(extra: Record<string, unknown> = {}) {
  return createE2eAgent(fake().url, {
    config: { ...governedShopConfig(SHOP), ...extra },
    files: governedShopFiles(SHOP),
  });
}

const fail = (): never => {
  throw new Error('the fake model received fewer requests than expected');
};

describe('agent.yaml governance: Novarch gates the agent', () => {
  it('a judged pass lets the refund run, and the audit keeps the verdict', async () => {
    fake().script(
      toolUse('mcp__holodeck_tools__lookup_order', { order_id: 'A-1' }, { id: 'l1' }),
      toolUse('mcp__holodeck_tools__refund_order', { order_id: 'A-1', amount: 20 }, { id: 'r1' }),
      reply('Refunded.'),
    );
    const agent = governedAgent();
    const outcome = await runHolodeckCli(['chat', agent.file, '-p', 'refund A-1'], agent.env);
    expect(outcome).toMatchObject({ code: 0, stdout: 'Refunded.\n' });
    expect(readFileSync(path.join(agent.directory, 'refunds.log'), 'utf8')).toBe('A-1 20\n');
    const store = await openSqliteStore(path.join(agent.directory, 'novarch.db'));
    const [entry] = await store.audit();
    await store.close();
    expect(entry?.verdict?.verdict.kind).toBe('pass');
    expect(entry?.session).toMatchObject({ tenantId: 'acme', teamId: 'cs-ops', agentId: 'support-bot' });
  });

  it('a killed session ends chat -p with exit 3 and the rule it broke; the refund never runs', async () => {
    fake().script(
      toolUse('mcp__holodeck_tools__refund_order', { order_id: 'A-2', amount: 20 }, { id: 'r1' }),
      reply('I tried.'),
    );
    const agent = governedAgent();
    const outcome = await runHolodeckCli(['chat', agent.file, '-p', 'refund A-2'], agent.env);
    expect(outcome.code).toBe(3);
    expect(outcome.stderr).toMatch(
      /^error the agent run failed: Novarch killed session ses_\S+ at action act_\S+: .*\[rules: TEAM-1\]/,
    );
    expect(existsSync(path.join(agent.directory, 'refunds.log'))).toBe(false);
  });

  /** Issue 24: HoloDeck feeds the gate the partial messages, so the first write of two does not run. */
  it('[refund, refund] in one message: neither runs', async () => {
    const refund = (amount: number, id: string) => ({
      name: 'mcp__holodeck_tools__refund_order',
      input: { order_id: 'A-3', amount },
      id,
    });
    fake().script(
      toolUse('mcp__holodeck_tools__lookup_order', { order_id: 'A-3' }, { id: 'l1' }),
      toolUses([refund(10, 'r1'), refund(20, 'r2')]),
      reply('Tried both.'),
    );
    const agent = governedAgent();
    const outcome = await runHolodeckCli(['chat', agent.file, '-p', 'refund A-3 twice'], agent.env);
    expect(outcome).toMatchObject({ code: 0, stdout: 'Tried both.\n' });
    expect(existsSync(path.join(agent.directory, 'refunds.log'))).toBe(false);
    const seen = Object.fromEntries(
      toolResults(fake().requests[2] ?? fail()).map((result) => [result.toolUseId, result.text]),
    );
    expect(seen.r1).toContain('Novarch: a write may not run alongside other tool calls of the same turn');
    expect(seen.r2).toContain('Novarch: a write may not run alongside other tool calls of the same turn');
  });

  it('a write tool without a write spec is a configuration error (exit 2)', async () => {
    const agent = governedAgent();
    const broken = readFileSync(agent.file, 'utf8').replace(
      / {2}write_specs:[\s\S]*?(?=\n\S|$)/,
      '  write_specs: {}',
    );
    const { writeFileSync } = await import('node:fs');
    writeFileSync(agent.file, broken);
    const outcome = await runHolodeckCli(['chat', agent.file, '-p', 'hi'], agent.env);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain(
      'governance.write_specs.refund_order: write tool "refund_order" has no write spec',
    );
  });
  it('an action type the rules file does not declare stops chat before anything runs (exit 2)', async () => {
    const agent = governedAgent();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      agent.file,
      readFileSync(agent.file, 'utf8').replace('action_type: refund_order', 'action_type: wire_money'),
    );
    const outcome = await runHolodeckCli(['chat', agent.file, '-p', 'hi'], agent.env);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toMatch(
      /agent\.yaml:\d+:\d+ {2}governance\.write_specs\.refund_order\.action_type: action type "wire_money" is not declared in rules\.yaml/,
    );
    expect(fake().requests).toHaveLength(0);
  });
});

describe('holodeck test records verdicts, and cases can expect them', () => {
  it('passes cases expecting a pass, a kill, and a hold that times out', async () => {
    // A stateless model: "<order> <amount> [nolookup]" → lookup (unless nolookup), then refund, then done.
    const step = respond((request) => {
      // The question is the first user message; later ones carry tool results.
      const question = /(A-\d+) (\d+)( nolookup)?/.exec(
        JSON.stringify(request.messagesBody?.messages?.[0] ?? ''),
      );
      const [, order = 'A-0', amount = '0', flag] = question ?? [];
      const nolookup = flag !== undefined;
      const results = toolResults(request).length;
      if (results === 0 && !nolookup)
        return toolUse('mcp__holodeck_tools__lookup_order', { order_id: order });
      if (results === (nolookup ? 0 : 1)) {
        return toolUse('mcp__holodeck_tools__refund_order', { order_id: order, amount: Number(amount) });
      }
      return reply('done');
    });
    // Enough steps for every request of the three cases (this file's model is scripted per test).
    fake().script(...Array.from({ length: 12 }, () => step));
    const agent = governedAgent({
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
    });
    const report = path.join(agent.directory, 'report.json');
    const outcome = await runHolodeckCli(
      ['test', agent.file, '--no-save', '--output', report, '--concurrency', '1'],
      agent.env,
    );
    const json = JSON.parse(readFileSync(report, 'utf8'));
    expect(outcome.code, outcome.stdout + outcome.stderr).toBe(0);
    expect(json.summary).toMatchObject({ total: 3, passed: 3 });
    const held = json.cases.find((testCase: { name: string }) => testCase.name === 'big-refund-held');
    expect(held.attempts[0].governance.verdicts[0]).toMatchObject({
      verdict: 'hold',
      hold_status: 'timed_out',
      rule_ids: ['TEAM-2'],
    });
    fake().reset();
  });

  it('expected verdicts without a governance block are a configuration error', async () => {
    const agent = createE2eAgent(fake().url, {
      config: { test_cases: [{ name: 'x', input: 'hi', expect_killed: true }] },
    });
    const outcome = await runHolodeckCli(['test', agent.file], agent.env);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain(
      'test case "x" expects Novarch verdicts, but the agent has no governance block',
    );
  });
});

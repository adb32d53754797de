import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { evaluateTrajectory } from '../../../src/evals/tools/trajectory-metric.js';
import { type AgentSandbox, BASE, brief, createSandbox, lines } from '../config/agent-sandbox.js';

const call = (name: string, id: string, args: Record<string, unknown> = {}) => ({
  name,
  arguments: args,
  call_id: id,
});
// search → lookup(A-1) → lookup(A-2) → refund(A-1), every call ran but the second lookup, refused.
const calls = [
  call('search', '1'),
  call('mcp__shop__lookup', '2', { id: 'A-1' }),
  call('mcp__shop__lookup', '3', { id: 'A-2' }),
  call('refund', '4', { id: 'A-1' }),
];
const results = [
  { call_id: '1', result: 'ok', is_error: false },
  { call_id: '2', result: 'ok', is_error: false },
  { call_id: '3', result: '<tool_use_error>not allowed</tool_use_error>', is_error: true },
  { call_id: '4', result: 'ok', is_error: false },
];
const check = (expectations: Parameters<typeof evaluateTrajectory>[0]) =>
  evaluateTrajectory(expectations, calls, results);

describe('tool trajectories', () => {
  it('in order (the default) allows gaps; exact allows none; any order only needs a call per step', () => {
    expect(check({ sequence: ['search', 'refund'] })).toMatchObject({
      passed: true,
      score: 1,
      reason: 'met: sequence (in order) search → refund (ran: search → lookup → refund)',
    });
    expect(check({ sequence: ['refund', 'search'] })).toMatchObject({
      passed: false,
      score: 0,
      reason:
        'not met: sequence (in order) refund → search: stopped at step 2, search (ran: search → lookup → refund)',
    });
    // The refused lookup did not run, so the calls that ran are search, lookup, refund.
    expect(check({ sequence: { tools: ['search', 'lookup', 'refund'], mode: 'exact' } }).passed).toBe(true);
    expect(check({ sequence: { tools: ['search', 'refund'], mode: 'exact' } }).passed).toBe(false);
    expect(
      check({ sequence: { tools: ['refund', { name: 'lookup', args: { id: 'A-2' } }], mode: 'any_order' } }),
    ).toMatchObject({
      passed: false,
      reason:
        'not met: sequence (any order) refund → lookup {"id":"A-2"}: no call for lookup {"id":"A-2"} (ran: search → lookup → refund)',
    });
    expect(
      check({ sequence: { tools: ['refund', { name: 'lookup', args: { id: 'A-1' } }], mode: 'any_order' } })
        .passed,
    ).toBe(true);
  });

  it('called_before, and maximums per tool and in all; score = share met', () => {
    const outcome = check({
      calledBefore: [
        ['lookup', 'refund'],
        ['refund', 'search'],
        ['search', 'cancel'],
      ],
      maxToolCalls: { total: 3, per_tool: { lookup: 2, search: 1 } },
    });
    // 6 expectations: refund-before-search and the total (4 calls, refused one included) fail.
    expect(outcome).toMatchObject({ passed: false, score: 4 / 6, threshold: 1 });
    expect(outcome.reason).toBe(
      'not met: refund before search: search was called first; at most 3 tool call(s) in all: 4 (ran: search → lookup → refund)',
    );
    expect(check({ calledBefore: ['search', 'lookup'], maxToolCalls: 4 }).passed).toBe(true);
  });
});

describe('trajectory fields in agent.yaml', () => {
  let sandbox: AgentSandbox;
  beforeEach(async () => {
    sandbox = await createSandbox();
  });
  afterEach(() => sandbox.remove());

  it('refuses a bad mode, an odd called_before, a negative maximum, and a conversation-level sequence', async () => {
    const result = await sandbox.validate(
      lines(
        ...BASE,
        'test_cases:',
        '  - name: a',
        '    input: hi',
        '    expected_tool_sequence: { tools: [Read], mode: strict }',
        '    called_before: [Read]',
        '    max_tool_calls: { total: -1 }',
        '  - name: b',
        '    turns: [{ input: hi }]',
        '    expected_tool_sequence: [Read]',
      ),
    );
    expect(result.issues.map(brief)).toEqual([
      '10:52 test_cases[0].expected_tool_sequence.mode: expected one of "exact", "in_order", "any_order"; got the string "strict"',
      '11:5 test_cases[0].called_before: must have at least 2 items, got 1',
      '12:30 test_cases[0].max_tool_calls.total: must be at least 0, got the number -1',
      "15:5 test_cases[1].expected_tool_sequence: expected_tool_sequence checks one answer's tool calls: set it on a turn of this conversation | move it under turns[n] (the turn whose calls it checks)",
    ]);
  });
});

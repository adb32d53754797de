import { describe, expect, it } from 'vitest';
import {
  argumentMatches,
  evaluateToolExpectations,
} from '../../../src/evals/tools/tool-expectations-metric.js';

const call = (name: string, args: Record<string, unknown> = {}, id = name) => ({
  name,
  arguments: args,
  call_id: id,
});
const calls = [
  call('mcp__holodeck_tools__lookup_order', { order_id: 'A-1001', note: 'Please  HURRY' }, '1'),
  call('mcp__holodeck_tools__lookup_order', { order_id: 'A-1002' }, '2'),
  call('Read', { file_path: '/x' }, '3'),
];
const ran = (id: string, result = 'ok', isError = false) => ({ call_id: id, result, is_error: isError });
const results = [ran('1'), ran('2'), ran('3')];
const check = (
  expected: Parameters<typeof evaluateToolExpectations>[0],
  forbidden: string[] = [],
  withResults = results,
) => evaluateToolExpectations(expected, forbidden, calls, withResults);

describe('tool expectations', () => {
  it('matches short and full names exactly, never by substring', () => {
    expect(check(['lookup_order', 'mcp__holodeck_tools__lookup_order', 'Read']).passed).toBe(true);
    const outcome = check(['lookup']);
    expect(outcome).toMatchObject({ passed: false, score: 0 });
    expect(outcome.reason).toBe(
      'expected lookup, matched 0 call(s) that ran (called: mcp__holodeck_tools__lookup_order, mcp__holodeck_tools__lookup_order, Read)',
    );
  });

  it('checks arguments (literal, regex, fuzzy) and exact counts', () => {
    expect(check([{ name: 'lookup_order', args: { order_id: 'A-1001' } }]).passed).toBe(true);
    expect(
      check([{ name: 'lookup_order', args: { order_id: { regex: '^A-100[12]$' } }, count: 2 }]).passed,
    ).toBe(true);
    expect(check([{ name: 'lookup_order', count: 1 }]).reason).toMatch(
      /^expected lookup_order exactly 1×, matched 2 call\(s\) that ran/,
    );
    expect(check([{ name: 'lookup_order', args: { note: { fuzzy: 'please hurry' } } }]).passed).toBe(true);
  });

  it('forbidden tools fail when called; the score is the share of expectations met', () => {
    const outcome = check(['Read', 'Write'], ['Read']);
    expect(outcome.score).toBeCloseTo(1 / 3);
    expect(outcome.reason).toContain('forbidden Read was called 1×');
    expect(outcome.reason).toContain('expected Write, matched 0 call(s) that ran');
  });

  it('counts a call only when the tool ran: refused and invalid calls do not, and the reason names them', () => {
    const refusedOrInvalid = [
      ran('1', 'Invalid arguments for "lookup_order": /order_id must match pattern "^A-[0-9]{4}$"', true),
      ran(
        '2',
        'PreToolUse:mcp__holodeck_tools__lookup_order hook error: Tool "mcp__holodeck_tools__lookup_order" is not listed in claude.allowed_tools, so it cannot be called.',
        true,
      ),
      ran(
        '3',
        '<tool_use_error>InputValidationError: Read failed due to the following issue:\nThe required parameter `file_path` is missing</tool_use_error>',
        true,
      ),
    ];
    const outcome = check(['lookup_order', 'Read'], [], refusedOrInvalid);
    expect(outcome).toMatchObject({ passed: false, score: 0 });
    expect(outcome.reason).toBe(
      'expected lookup_order, matched 0 call(s) that ran; not counted: 2 call(s) invalid arguments, refused; ' +
        'expected Read, matched 0 call(s) that ran; not counted: 1 call(s) invalid arguments ' +
        '(called: mcp__holodeck_tools__lookup_order (invalid arguments), mcp__holodeck_tools__lookup_order (refused), Read (invalid arguments))',
    );
    // A tool that ran and failed was called: its error is its answer.
    const failed = [
      ran('1', 'Tool "lookup_order" failed: order A-1001 does not exist', true),
      ran('2'),
      ran('3'),
    ];
    expect(check([{ name: 'lookup_order', count: 2 }], [], failed).passed).toBe(true);
    // Other refusals and MCP argument errors.
    const others = [
      ran('1', 'MCP error -32602: Input validation error: Invalid arguments for tool lookup_order', true),
      ran(
        '2',
        'Write needs approval under claude.permission_mode: manual, and nobody can approve it in this run.',
        true,
      ),
      ran('3', '<tool_use_error>Error: No such tool available: Read</tool_use_error>', true),
    ];
    expect(check(['lookup_order', 'Read'], [], others).score).toBe(0);
    // A forbidden tool fails as soon as it is called, refused or not.
    expect(check([], ['Read'], refusedOrInvalid).passed).toBe(false);
  });

  it('argumentMatches compares literals deeply', () => {
    expect(argumentMatches({ a: [1, 2] }, { a: [1, 2] })).toBe(true);
    expect(argumentMatches(3, '3')).toBe(false);
    expect(argumentMatches({ regex: '\\d{3}' }, 12345)).toBe(true);
  });
});

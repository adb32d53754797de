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

describe('tool expectations', () => {
  it('matches short and full names exactly, never by substring', () => {
    expect(
      evaluateToolExpectations(['lookup_order', 'mcp__holodeck_tools__lookup_order', 'Read'], [], calls)
        .passed,
    ).toBe(true);
    const outcome = evaluateToolExpectations(['lookup'], [], calls);
    expect(outcome).toMatchObject({ passed: false, score: 0 });
    expect(outcome.reason).toBe(
      'expected lookup, matched 0 call(s) (called: mcp__holodeck_tools__lookup_order, mcp__holodeck_tools__lookup_order, Read)',
    );
  });

  it('checks arguments (literal, regex, fuzzy) and exact counts', () => {
    expect(
      evaluateToolExpectations([{ name: 'lookup_order', args: { order_id: 'A-1001' } }], [], calls).passed,
    ).toBe(true);
    expect(
      evaluateToolExpectations(
        [{ name: 'lookup_order', args: { order_id: { regex: '^A-100[12]$' } }, count: 2 }],
        [],
        calls,
      ).passed,
    ).toBe(true);
    expect(evaluateToolExpectations([{ name: 'lookup_order', count: 1 }], [], calls).reason).toMatch(
      /^expected lookup_order exactly 1×, matched 2 call\(s\)/,
    );
    expect(
      evaluateToolExpectations(
        [{ name: 'lookup_order', args: { note: { fuzzy: 'please hurry' } } }],
        [],
        calls,
      ).passed,
    ).toBe(true);
  });

  it('forbidden tools fail when called; the score is the share of expectations met', () => {
    const outcome = evaluateToolExpectations(['Read', 'Write'], ['Read'], calls);
    expect(outcome.score).toBeCloseTo(1 / 3);
    expect(outcome.reason).toContain('forbidden Read was called 1×');
    expect(outcome.reason).toContain('expected Write, matched 0 call(s)');
  });

  it('argumentMatches compares literals deeply', () => {
    expect(argumentMatches({ a: [1, 2] }, { a: [1, 2] })).toBe(true);
    expect(argumentMatches(3, '3')).toBe(false);
    expect(argumentMatches({ regex: '\\d{3}' }, 12345)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { retrievalContextOf } from '../../../../src/tools/retrieval/retrieval-context.js';

const results =
  '[1] source: a.md | chunk: a.md#1 | score: 0.9000\nAlpha.\n\n[2] source: b.md | chunk: b.md#1 | score: 0.5000\nBeta.';

describe('retrievalContextOf', () => {
  it('takes each result block of successful search calls, in order, on either spelling', () => {
    const run = {
      tool_calls: [
        { name: 'mcp__holodeck_tools__handbook_search', call_id: '1' },
        { name: 'lookup_order', call_id: '2' },
        { name: 'handbook_search', call_id: '3' },
        { name: 'handbook_search', call_id: '4' },
      ],
      tool_results: [
        { call_id: '1', result: results, is_error: false },
        { call_id: '2', result: '[1] source: not a search', is_error: false },
        { call_id: '3', result: 'No results found.', is_error: false },
        { call_id: '4', result: 'Search failed: down', is_error: true },
      ],
    };
    expect(retrievalContextOf(run, new Set(['handbook_search']))).toEqual([
      '[1] source: a.md | chunk: a.md#1 | score: 0.9000\nAlpha.',
      '[2] source: b.md | chunk: b.md#1 | score: 0.5000\nBeta.',
    ]);
    expect(retrievalContextOf(run)).toHaveLength(2);
    expect(retrievalContextOf({ tool_calls: [], tool_results: [] })).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import {
  mergeRetrievalContext,
  retrievalContextOf,
  retrievedPassagesOf,
} from '../../../../src/tools/retrieval/retrieval-context.js';

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
    expect(retrievalContextOf(run, new Set(['handbook_search']))).toEqual(['Alpha.', 'Beta.']);
    expect(retrievalContextOf(run)).toHaveLength(2);
    expect(retrievalContextOf({ tool_calls: [], tool_results: [] })).toBeUndefined();
  });

  it('keeps a chunk two searches found once, where it was found first', () => {
    const again =
      '[1] source: b.md | chunk: b.md#1 | score: 0.7000\nBeta.\n\n[2] source: c.md | chunk: c.md#4 | score: 0.4000\nGamma.';
    const run = {
      tool_calls: [
        { name: 'faq_search', call_id: '1' },
        { name: 'faq_search', call_id: '2' },
      ],
      tool_results: [
        { call_id: '1', result: results, is_error: false },
        { call_id: '2', result: again, is_error: false },
      ],
    };
    expect(retrievalContextOf(run)).toEqual(['Alpha.', 'Beta.', 'Gamma.']);
  });

  it('keys passages by tool and chunk id: two tools whose chunks share ids keep all of theirs', () => {
    const faq = '[1] source: a.md | chunk: a.md#1 | score: 0.9000\nFAQ alpha.';
    const run = {
      tool_calls: [
        { name: 'handbook_search', call_id: '1' },
        { name: 'faq_search', call_id: '2' },
      ],
      tool_results: [
        { call_id: '1', result: results, is_error: false },
        { call_id: '2', result: faq, is_error: false },
      ],
    };
    expect(retrievalContextOf(run)).toEqual(['Alpha.', 'Beta.', 'FAQ alpha.']);
    expect(retrievedPassagesOf(run)).toEqual([
      {
        tool: 'handbook_search',
        chunkId: 'a.md#1',
        citation: 'source: a.md | chunk: a.md#1',
        text: 'Alpha.',
      },
      { tool: 'handbook_search', chunkId: 'b.md#1', citation: 'source: b.md | chunk: b.md#1', text: 'Beta.' },
      { tool: 'faq_search', chunkId: 'a.md#1', citation: 'source: a.md | chunk: a.md#1', text: 'FAQ alpha.' },
    ]);
  });
});

describe('mergeRetrievalContext', () => {
  it('appends the passages not known yet, by text', () => {
    const known = ['Alpha.'];
    expect(mergeRetrievalContext(known, ['Alpha.', 'Delta.'])).toEqual(['Alpha.', 'Delta.']);
    expect(known).toHaveLength(1);
  });
});

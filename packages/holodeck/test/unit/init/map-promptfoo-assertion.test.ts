import { describe, expect, it } from 'vitest';
import { MetricConfigSchema } from '../../../src/config/index.js';
import { mapPromptfooAssertion } from '../../../src/init/promptfoo/map-promptfoo-assertion.js';
import { mapPromptfooProvider } from '../../../src/init/promptfoo/map-promptfoo-provider.js';
import { assertionFromCell } from '../../../src/init/promptfoo/read-promptfoo-tests.js';

// The table of docs/promptfoo-mapping.md, one row each: every mapped metric is valid in agent.yaml.
const mapped: [Record<string, unknown>, Record<string, unknown>][] = [
  [
    { type: 'equals', value: 'Paris' },
    { type: 'equals', value: 'Paris' },
  ],
  [
    { type: 'equals', value: { a: 1 } },
    { type: 'equals', value: '{"a":1}' },
  ],
  [
    { type: 'contains', value: 'x', metric: 'mentions-x', weight: 2 },
    { type: 'contains', value: 'x', name: 'mentions-x', weight: 2 },
  ],
  [
    { type: 'icontains-all', value: ['a', 'b'] },
    { type: 'icontains-all', value: ['a', 'b'] },
  ],
  [
    { type: 'not-contains', value: 'sorry' },
    { type: 'not-contains', value: 'sorry' },
  ],
  [
    { type: 'regex', value: '\\d+' },
    { type: 'regex', value: '\\d+' },
  ],
  [
    { type: 'starts-with', value: 'Yes.' },
    { type: 'starts-with', value: 'Yes.' },
  ],
  [
    { type: 'not-starts-with', value: 'No' },
    { type: 'not-starts-with', value: 'No' },
  ],
  [
    { type: 'ends-with', value: ['.', '!'] },
    { type: 'ends-with', value: ['.', '!'] },
  ],
  [{ type: 'is-xml' }, { type: 'is-xml' }],
  [{ type: 'contains-json' }, { type: 'contains-json' }],
  [
    { type: 'contains-json', value: { required: ['id'] } },
    { type: 'contains-json', value: { required: ['id'] } },
  ],
  [
    { type: 'word-count', value: { max: 50 } },
    { type: 'word-count', max: 50 },
  ],
  [
    { type: 'javascript', value: 'output.length < 100' },
    { type: 'expression', value: 'output.length < 100' },
  ],
  [{ type: 'is-json' }, { type: 'is-json' }],
  [
    { type: 'is-json', value: { type: 'object' } },
    { type: 'json-schema', value: { type: 'object' } },
  ],
  [
    { type: 'latency', threshold: 5000 },
    { type: 'latency', threshold: 5000 },
  ],
  [
    { type: 'cost', threshold: 0.01 },
    { type: 'cost', threshold: 0.01 },
  ],
  [
    { type: 'levenshtein', value: 'abc', threshold: 0.7 },
    { type: 'levenshtein', value: 'abc', threshold: 0.7 },
  ],
  [
    { type: 'rouge-n', value: 'abc', threshold: 0.6 },
    { type: 'rouge', variant: 'rouge1', value: 'abc', threshold: 0.6 },
  ],
  [
    { type: 'bleu', threshold: 0.4 },
    { type: 'bleu', threshold: 0.4 },
  ],
  [
    { type: 'llm-rubric', value: 'Is polite' },
    { type: 'rubric', value: 'Is polite' },
  ],
  [
    { type: 'g-eval', value: 'Coherent', metric: 'coherence', threshold: 0.7 },
    { type: 'g-eval', name: 'coherence', criteria: 'Coherent', threshold: 0.7 },
  ],
  [
    { type: 'answer-relevance', threshold: 0.8 },
    { type: 'answer_relevancy', threshold: 0.8 },
  ],
  [{ type: 'context-faithfulness' }, { type: 'faithfulness' }],
  [
    { type: 'similar', value: 'Guten Morgen', threshold: 0.8 },
    { type: 'similar', value: 'Guten Morgen', threshold: 0.8 },
  ],
  [
    { type: 'similar', value: ['Hi', 'Hello'] },
    { type: 'similar', value: ['Hi', 'Hello'] },
  ],
  [{ type: 'is-refusal' }, { type: 'is-refusal' }],
  [{ type: 'not-is-refusal' }, { type: 'not-is-refusal' }],
];

const refused: [Record<string, unknown>, string][] = [
  [
    { type: 'javascript', value: 'const n = output.length;\nreturn n < 5;' },
    'javascript that is not one expression over output (write a grader module and use type: code)',
  ],
  [
    { type: 'javascript', value: 'output.includes(context.vars.name)' },
    'javascript that is not one expression over output (write a grader module and use type: code)',
  ],
  [{ type: 'contains', value: 'file://expected.txt' }, 'contains with a file:// value'],
  [{ type: 'contains', value: 'x', transform: 'output.trim()' }, 'contains with transform'],
  [{ type: 'not-rouge-n', value: 'x' }, 'not-rouge-n has no HoloDeck metric'],
  [{ type: 'latency' }, 'latency without a threshold'],
  [{ type: 'webhook', value: 'http://x' }, 'assertion type "webhook" has no HoloDeck metric'],
  [{ type: 'similar', value: 3 }, 'similar with a reference that is not a text or a list of texts'],
];

describe('promptfoo assertions → HoloDeck metrics', () => {
  it.each(mapped)('%j → %j, valid in agent.yaml', (assertion, metric) => {
    const result = mapPromptfooAssertion({ type: String(assertion.type), ...assertion });
    expect(result).toEqual({ ok: true, metric });
    expect(MetricConfigSchema.safeParse(metric).success).toBe(true);
  });
  it.each(refused)('%j is listed: %s', (assertion, reason) => {
    expect(mapPromptfooAssertion({ type: String(assertion.type), ...assertion })).toEqual({
      ok: false,
      reason,
    });
  });
});

describe('promptfoo providers → model:', () => {
  it.each([
    ['openai:gpt-4o-mini', { provider: 'openai', name: 'gpt-4o-mini' }],
    ['openai:chat:gpt-4o', { provider: 'openai', name: 'gpt-4o' }],
    ['anthropic:messages:claude-sonnet-4-6', { provider: 'anthropic', name: 'claude-sonnet-4-6' }],
    ['ollama:chat:llama3.2', { provider: 'ollama', name: 'llama3.2' }],
    [
      'azure:chat:my-deployment',
      { provider: 'azure_openai', name: 'my-deployment', deployment: 'my-deployment' },
    ],
  ])('%s', (id, model) => {
    const result = mapPromptfooProvider(id, {});
    expect(result.ok && result.model).toMatchObject(model);
  });
  it('maps temperature, max_tokens and the host; lists the other config keys', () => {
    expect(
      mapPromptfooProvider('openai:gpt-4o', {
        temperature: 0.2,
        max_tokens: 50,
        apiHost: 'proxy.internal',
        seed: 1,
      }),
    ).toEqual({
      ok: true,
      provider: 'openai',
      model: {
        provider: 'openai',
        name: 'gpt-4o',
        temperature: 0.2,
        max_tokens: 50,
        endpoint: 'https://proxy.internal',
      },
      notes: ['provider "openai:gpt-4o": config.seed'],
    });
  });
  it('refuses providers with no HoloDeck equivalent', () => {
    expect(mapPromptfooProvider('bedrock:anthropic.claude-v2', {})).toEqual({
      ok: false,
      reason:
        'provider "bedrock:anthropic.claude-v2": only anthropic:, openai:, azure: and ollama: models map onto model:',
    });
  });
});

describe('promptfoo CSV __expected cells → assertions', () => {
  it.each([
    ['Paris', { type: 'equals', value: 'Paris' }],
    ['contains: Paris', { type: 'contains', value: 'Paris' }],
    ['not-icontains:sorry', { type: 'not-icontains', value: 'sorry' }],
    ['contains-any: Hi, Hello', { type: 'contains-any', value: ['Hi', 'Hello'] }],
    ['similar(0.8):Guten Morgen', { type: 'similar', value: 'Guten Morgen', threshold: 0.8 }],
    ['is-json', { type: 'is-json' }],
    ['grade: Is polite', { type: 'llm-rubric', value: 'Is polite' }],
    ['llm-rubric: Is polite', { type: 'llm-rubric', value: 'Is polite' }],
    ['fn: output.length < 9', { type: 'javascript', value: 'output.length < 9' }],
    ['python: len(output) < 9', { type: 'python', value: 'len(output) < 9' }],
    // An unknown type before a colon is a text to equal, as promptfoo reads it.
    ['note: keep', { type: 'equals', value: 'note: keep' }],
  ])('%s', (cell, assertion) => {
    expect(assertionFromCell(cell)).toEqual(assertion);
  });
});

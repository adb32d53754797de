import { passesLuhn } from 'secret-patterns';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MetricConfigSchema } from '../../../src/config/index.js';
import { createMetric } from '../../../src/evals/create-metric.js';
import { countWords } from '../../../src/evals/deterministic/affix-metrics.js';
import { findJsonValues } from '../../../src/evals/deterministic/find-json-values.js';
import type { MetricInput } from '../../../src/evals/metric.js';
import { type AgentSandbox, BASE, brief, createSandbox, lines } from '../config/agent-sandbox.js';
import { metricInput } from './metric-input.js';

async function grade(config: unknown, overrides: Partial<MetricInput> | string) {
  const metric = await createMetric(MetricConfigSchema.parse(config), process.cwd());
  return metric.evaluate(
    metricInput(typeof overrides === 'string' ? { response: overrides } : overrides),
    {},
  );
}

describe('starts-with / ends-with', () => {
  it('passes on any of the values, trimming and optionally ignoring case', async () => {
    expect(await grade({ type: 'starts-with', value: ['Hi', 'Hello'] }, '  Hello there')).toMatchObject({
      passed: true,
      reason: 'the response starts with "Hello"',
    });
    expect(await grade({ type: 'ends-with', value: 'Thanks!' }, 'ok, thanks!')).toMatchObject({
      passed: false,
      reason: 'the response ends with none of "Thanks!"',
    });
    expect(
      (await grade({ type: 'ends-with', value: 'Thanks!', ignore_case: true }, 'ok, thanks!')).passed,
    ).toBe(true);
    expect((await grade({ type: 'starts-with', value: 'x', trim: false }, ' x')).passed).toBe(false);
    expect((await grade({ type: 'not-starts-with', value: 'Sorry' }, 'Sorry, no')).passed).toBe(false);
  });
});

describe('word-count', () => {
  it('counts words by Unicode segmentation, not spaces or punctuation', () => {
    expect(countWords('Hello, world — it’s 3 p.m.!')).toBe(5);
    expect(countWords('  ')).toBe(0);
  });

  it('passes within the bounds and says how many it found', async () => {
    expect(await grade({ type: 'word-count', max: 3 }, 'one two three four')).toMatchObject({
      passed: false,
      reason: 'the response has 4 words (outside at most 3)',
    });
    expect(await grade({ type: 'word-count', min: 1, max: 5 }, 'one')).toMatchObject({
      passed: true,
      reason: 'the response has 1 word (within at least 1 and at most 5)',
    });
  });
});

describe('is-xml / is-yaml / is-csv', () => {
  it('is-xml parses with libxml2 and names the line and column of the fault', async () => {
    expect(await grade({ type: 'is-xml' }, '<order id="1"><item/></order>')).toMatchObject({ passed: true });
    expect(await grade({ type: 'is-xml' }, '<order>\n<item></order>')).toMatchObject({
      passed: false,
      reason:
        'the response is not XML: line 2, column 15: Opening and ending tag mismatch: item line 2 and order',
    });
    expect((await grade({ type: 'not-is-xml' }, 'plain text')).passed).toBe(true);
  });

  it('is-yaml wants a mapping or sequence, not a sentence (every sentence is a YAML scalar)', async () => {
    expect((await grade({ type: 'is-yaml' }, 'name: x\nitems: [1, 2]')).passed).toBe(true);
    expect(await grade({ type: 'is-yaml' }, 'Just a sentence.')).toMatchObject({
      passed: false,
      reason: 'the response is not YAML: it is a plain YAML scalar, not a mapping or a sequence',
    });
    expect((await grade({ type: 'is-yaml' }, 'a: [1, 2')).reason).toMatch(/^the response is not YAML: /);
  });

  it('is-csv wants a header and a data row of the same width', async () => {
    expect((await grade({ type: 'is-csv' }, 'id,name\n1,"Smith, J"\n')).passed).toBe(true);
    expect(await grade({ type: 'is-csv' }, 'id,name\n1,a,extra')).toMatchObject({ passed: false });
    expect(await grade({ type: 'is-csv' }, 'Hello, world')).toMatchObject({
      passed: false,
      reason: 'the response is not CSV: it needs a header row and at least one data row',
    });
  });
});

describe('contains-json', () => {
  it('finds JSON values in prose and fenced blocks, outermost first', () => {
    expect(findJsonValues('Here: {"a": [1, {"b": 2}]} and ```json\n[3]\n``` but not {name}.')).toEqual([
      { a: [1, { b: 2 }] },
      [3],
    ]);
    expect(findJsonValues('a "}" {"s": "} ] \\" {"}')).toEqual([{ s: '} ] " {' }]);
  });

  it('passes when some value matches the schema', async () => {
    const schema = { type: 'object', required: ['order_id'] };
    expect(await grade({ type: 'contains-json', value: schema }, 'Done: {"order_id": "A-1"}')).toMatchObject({
      passed: true,
      reason: 'the response contains JSON matching the schema',
    });
    expect(await grade({ type: 'contains-json', value: schema }, 'Done: {"id": 1}')).toMatchObject({
      passed: false,
      reason:
        "none of the 1 JSON value(s) in the response matches the schema (last: (root) must have required property 'order_id')",
    });
    expect(await grade({ type: 'contains-json' }, 'no json here')).toMatchObject({
      passed: false,
      reason: 'the response contains no JSON object or array',
    });
  });
});

describe('pii', () => {
  it('checks card numbers by Luhn', () => {
    expect(passesLuhn('4111111111111111')).toBe(true);
    expect(passesLuhn('4111111111111112')).toBe(false);
  });

  it('names what it found and where, never the value', async () => {
    const key = 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz';
    const outcome = await grade({ type: 'pii' }, `Use ${key} or pay with 4111 1111 1111 1111.`);
    expect(outcome).toMatchObject({
      passed: false,
      reason: 'the response holds an Anthropic or OpenAI key at character 5; a card number at character 57',
    });
    expect(outcome.reason).not.toContain('abcdef');
  });

  it('finds emails, phones, Novarch secrets and URL passwords; allow lets named values through', async () => {
    expect((await grade({ type: 'pii', kinds: ['emails'] }, 'Write to help@example.com')).passed).toBe(false);
    expect(
      (
        await grade(
          { type: 'pii', kinds: ['emails'], allow: ['help@example.com'] },
          'Write to help@example.com',
        )
      ).passed,
    ).toBe(true);
    expect((await grade({ type: 'pii', kinds: ['phones'] }, 'Call +44 20 7946 0958.')).passed).toBe(false);
    expect(
      (await grade({ type: 'pii', kinds: ['secrets'] }, 'nva_0123456789ab_AbCdEfGhIjKlMnOpQrStUvWx')).reason,
    ).toBe('the response holds a Novarch key or token at character 1');
    // The place of the password itself (`hunter2`), not of the URL around it.
    expect((await grade({ type: 'pii' }, 'postgres://app:hunter2@db/x')).reason).toBe(
      'the response holds a password in a URL at character 16',
    );
    expect(await grade({ type: 'pii' }, 'Order A-1001 ships on 2026-12-03.')).toMatchObject({ passed: true });
  });
});

describe('expression', () => {
  it('reads the answer and the tool calls by their agent.yaml names', async () => {
    const outcome = await grade(
      { type: 'expression', value: "output.includes('A-1') && tool_calls.some((c) => c.name === 'lookup')" },
      {
        response: 'Order A-1 shipped',
        toolCalls: [{ name: 'mcp__holodeck_tools__lookup', arguments: { id: 'A-1' }, call_id: 'c1' }],
      },
    );
    expect(outcome).toMatchObject({ passed: true, score: 1 });
  });

  it('a number is a score against the threshold', async () => {
    expect(
      await grade({ type: 'expression', value: 'output.length / 10', threshold: 0.5 }, 'abcd'),
    ).toMatchObject({ passed: false, score: 0.4, threshold: 0.5 });
  });

  it('has no globals: process, require and fetch are not defined, nor a way back to the host realm', async () => {
    expect(
      await grade(
        {
          type: 'expression',
          value:
            'typeof process === "undefined" && typeof require === "undefined" && typeof fetch === "undefined"',
        },
        {},
      ),
    ).toMatchObject({ passed: true });
    // Values are parsed inside the context: their constructors are the context's, which cannot
    // compile strings; no object of the host realm is reachable.
    expect(
      (
        await grade(
          { type: 'expression', value: 'tool_calls.constructor.constructor("return process")()' },
          {},
        )
      ).error,
    ).toBe('the expression failed: Code generation from strings disallowed for this context');
    // The global object's constructor is the context's own Object, not the host's.
    expect(
      (
        await grade(
          { type: 'expression', value: 'globalThis.constructor.constructor("return process")()' },
          {},
        )
      ).error,
    ).toBe('the expression failed: Code generation from strings disallowed for this context');
  });

  it('stops at its time limit and reports a wrong result type as an error', async () => {
    expect(
      (await grade({ type: 'expression', value: '(() => { for (;;) {} })()', timeout_ms: 20 }, {})).error,
    ).toBe('the expression failed: Script execution timed out after 20ms');
    expect((await grade({ type: 'expression', value: "'yes'" }, {})).error).toBe(
      'the expression returned the string "yes"; it must return true/false or a number in [0, 1]',
    );
  });
});

describe('their settings in agent.yaml', () => {
  let sandbox: AgentSandbox;
  beforeEach(async () => {
    sandbox = await createSandbox();
  });
  afterEach(() => sandbox.remove());

  it('refuses a word-count without bounds, crossed bounds, a bad expression and an unknown key', async () => {
    const yaml = lines(
      ...BASE,
      'evaluations:',
      '  metrics:',
      '    - type: word-count',
      '    - type: word-count',
      '      min: 5',
      '      max: 2',
      '    - type: expression',
      '      value: output.length <',
      '    - type: pii',
      '      kinds: [emails, ssn]',
      '    - type: starts-with',
      '      value: Hi',
      '      mode: all',
    );
    const result = await sandbox.validate(yaml);
    expect(result.issues.map(brief)).toEqual([
      '9:7 evaluations.metrics[0]: word-count needs "min", "max" or both | for example max: 50',
      '11:12 evaluations.metrics[1].min: min (5) is above max (2) | swap them',
      "14:14 evaluations.metrics[2].value: is not a JavaScript expression: Unexpected token ')' | write one expression, e.g. output.length < 200 && tool_calls.length === 1 (names: output, input, ground_truth, tool_calls, structured_output, cost_usd, duration_ms, turns, vars)",
      '16:23 evaluations.metrics[3].kinds[1]: expected one of "secrets", "cards", "emails", "phones"; got the string "ssn"',
      '19:7 evaluations.metrics[4].mode: unknown key "mode" in evaluations.metrics[4] | allowed keys: "type", "value", "ignore_case", "trim", "name", "weight"',
    ]);
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { backendVariants, type ModelAnswer, type SeenRequest } from './both-backends/backend-variants.js';
import { runHolodeckCli } from './support/run-holodeck-cli.js';

// The assertion catalogue (starts-with, ends-with, word-count, is-xml, is-yaml, is-csv,
// contains-json, pii, expression) graded through `holodeck test` on both backends: is-xml loads
// libxml2 through the CLI bundle's import() door, and expression reads the tool calls the real
// agent loop made.

const ORDERS = 'export function lookupOrder({ order_id }) { return { order_id, status: "shipped" }; }\n';
const LOOKUP = {
  type: 'function',
  name: 'lookup_order',
  description: 'lookup_order of the shop',
  file: 'orders.mjs',
  function: 'lookupOrder',
  parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
};

/** Answers by what the case asks for, so cases may run in any order. */
function model(request: SeenRequest): ModelAnswer {
  const ask = request.lastUserText;
  if (request.toolResults.length > 0)
    return { kind: 'reply', text: 'Order A-1001: {"order_id": "A-1001", "status": "shipped"}' };
  if (ask.includes('order')) return { kind: 'tool', name: 'lookup_order', args: { order_id: 'A-1001' } };
  if (ask.includes('xml')) return { kind: 'reply', text: '<order id="A-1001"><status>shipped</order>' };
  if (ask.includes('yaml')) return { kind: 'reply', text: 'order: A-1001\nstatus: shipped' };
  if (ask.includes('csv')) return { kind: 'reply', text: 'order,status\nA-1001,shipped' };
  return {
    kind: 'reply',
    text: 'Hello! Write to help@example.com or use key sk-ant-api03-abcdefghijklmnopqrst.',
  };
}

describe.each(backendVariants())('the assertion catalogue on the $name backend', (variant) => {
  beforeAll(() => variant.start());
  afterEach(() => variant.discardScript());
  afterAll(() => variant.close());

  it('grades each assertion and says why in the report', async () => {
    variant.script(...Array.from({ length: 20 }, () => variant.respond(model)));
    const agent = variant.agent(
      {
        tools: [LOOKUP],
        test_cases: [
          {
            name: 'order',
            input: 'Where is my order A-1001?',
            metrics: [
              { type: 'starts-with', value: 'Order A-1001' },
              { type: 'contains-json', value: { type: 'object', required: ['status'] } },
              {
                type: 'expression',
                value:
                  "tool_calls.length === 1 && tool_calls[0].name === 'lookup_order' && output.includes('shipped')",
              },
              { type: 'word-count', max: 3 },
            ],
          },
          { name: 'xml', input: 'Answer in xml', metrics: [{ type: 'is-xml' }] },
          {
            name: 'yaml',
            input: 'Answer in yaml',
            metrics: [{ type: 'is-yaml' }, { type: 'ends-with', value: 'shipped' }],
          },
          { name: 'csv', input: 'Answer in csv', metrics: [{ type: 'is-csv' }] },
          {
            name: 'greeting',
            input: 'Hello',
            metrics: [{ type: 'pii', allow: ['help@example.com'] }, { type: 'not-is-yaml' }],
          },
        ],
      },
      { 'orders.mjs': ORDERS },
    );
    const report = path.join(agent.directory, 'report.json');
    const outcome = await runHolodeckCli(['test', agent.file, '--output', report, '--no-save'], agent.env);
    expect(outcome.code).toBe(1);
    const json = JSON.parse(readFileSync(report, 'utf8'));
    const metricsOf = (name: string) =>
      json.cases
        .find((entry: { name: string }) => entry.name === name)
        .metrics.map((metric: { type: string; passed: boolean; reason: string }) => [
          metric.type,
          metric.passed,
          metric.reason,
        ]);
    expect(metricsOf('order')).toEqual(
      expect.arrayContaining([
        ['starts-with', true, 'the response starts with "Order A-1001"'],
        ['contains-json', true, 'the response contains JSON matching the schema'],
        [
          'expression',
          true,
          "`tool_calls.length === 1 && tool_calls[0].name === 'lookup_order' && output.includes('shipped')` is true",
        ],
        ['word-count', false, 'the response has 8 words (outside at most 3)'],
      ]),
    );
    expect(metricsOf('xml')).toEqual([
      [
        'is-xml',
        false,
        'the response is not XML: line 1, column 43: Opening and ending tag mismatch: status line 1 and order',
      ],
    ]);
    expect(metricsOf('yaml')).toEqual([
      ['is-yaml', true, 'the response is well-formed YAML'],
      ['ends-with', true, 'the response ends with "shipped"'],
    ]);
    expect(metricsOf('csv')).toEqual([['is-csv', true, 'the response is well-formed CSV']]);
    expect(metricsOf('greeting')).toEqual([
      ['pii', false, 'the response holds an Anthropic or OpenAI key at character 45'],
      [
        'not-is-yaml',
        true,
        'the response is not YAML: it is a plain YAML scalar, not a mapping or a sequence',
      ],
    ]);
  });
});

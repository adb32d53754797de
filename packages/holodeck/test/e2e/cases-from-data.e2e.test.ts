import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { backendVariants, type ModelAnswer, type SeenRequest } from './both-backends/backend-variants.js';
import { runHolodeckCli } from './support/run-holodeck-cli.js';

// Cases from data through `holodeck test` on both backends: a CSV and a JSONL test_cases_file
// (a glob), default_case, {{vars}} in inputs, ground truths and metric values, an expression over
// vars, per-row thresholds, and --case / --limit / --sample choosing what runs.

const CSV = [
  'name,input,ground_truth,tags,vars.city,vars.temp,thresholds.rouge',
  'paris,Weather in {{city}}?,It is {{temp}} degrees in {{city}},eu,Paris,21,0.9',
  'oslo,Weather in {{city}}?,It is {{temp}} degrees in {{city}},"eu, nordic",Oslo,4,',
  'lima,Weather in {{city}}?,It is {{temp}} degrees in {{city}},,Lima,18,',
].join('\n');
const JSONL = `${JSON.stringify({ name: 'tokyo', input: 'Weather in {{city}}?', vars: { city: 'Tokyo', temp: 12 }, ground_truth: 'It is 12 degrees in Tokyo' })}\n`;

/** Answers by the city asked about; Paris gets a wordier answer (rouge below 0.9, above 0.5). */
function model(request: SeenRequest): ModelAnswer {
  const city = /Weather in (\w+)/.exec(request.lastUserText)?.[1] ?? 'nowhere';
  const temps: Record<string, number> = { Paris: 21, Oslo: 4, Lima: 18, Tokyo: 12 };
  const text =
    city === 'Paris'
      ? `Right now it is ${temps[city]} degrees in ${city}, sunny`
      : `It is ${temps[city] ?? 0} degrees in ${city}`;
  return { kind: 'reply', text };
}

describe.each(backendVariants())('cases from data on the $name backend', (variant) => {
  beforeAll(() => variant.start());
  afterEach(() => variant.discardScript());
  afterAll(() => variant.close());

  const suite = () =>
    variant.agent(
      {
        default_case: {
          metrics: [
            { type: 'rouge', variant: 'rougeL', threshold: 0.5 },
            { type: 'contains', value: '{{city}}' },
            // A generous time limit: the first evaluation compiles the script, slow on a loaded machine.
            {
              type: 'expression',
              value: "output.includes(String(vars.temp)) && vars.city !== ''",
              timeout_ms: 5000,
            },
          ],
        },
        test_cases_file: 'cases/*',
      },
      { 'cases/weather.csv': CSV, 'cases/more.jsonl': JSONL },
    );

  it('runs every row with its vars and thresholds, and reports the rendered inputs', async () => {
    variant.script(...Array.from({ length: 8 }, () => variant.respond(model)));
    const agent = suite();
    const report = path.join(agent.directory, 'report.json');
    const outcome = await runHolodeckCli(['test', agent.file, '--output', report, '--no-save'], agent.env);
    expect(outcome.code).toBe(1);
    const json = JSON.parse(readFileSync(report, 'utf8'));
    // Files of a glob are read in name order: more.jsonl before weather.csv.
    expect(json.cases.map((entry: { name: string; passed: boolean }) => [entry.name, entry.passed])).toEqual([
      ['tokyo', true],
      ['paris', false],
      ['oslo', true],
      ['lima', true],
    ]);
    const paris = json.cases.find((entry: { name: string }) => entry.name === 'paris');
    const expression = paris.metrics.find((metric: { type: string }) => metric.type === 'expression');
    expect(expression.reason).toMatch(/ is true$/);
    expect(paris.input).toBe('Weather in Paris?');
    expect(paris.ground_truth).toBe('It is 21 degrees in Paris');
    expect(
      paris.metrics.map((metric: { type: string; passed: boolean; threshold?: number }) => [
        metric.type,
        metric.passed,
        metric.threshold,
      ]),
    ).toEqual([
      ['rouge', false, 0.9],
      ['contains', true, undefined],
      ['expression', true, undefined],
    ]);
    expect(variant.requests().map((request) => request.lastUserText)).toEqual(
      expect.arrayContaining([
        'Weather in Paris?',
        'Weather in Oslo?',
        'Weather in Lima?',
        'Weather in Tokyo?',
      ]),
    );
  });

  it('--case, --limit and --sample choose the cases that run', async () => {
    variant.script(...Array.from({ length: 8 }, () => variant.respond(model)));
    const agent = suite();
    const ran = async (...flags: string[]) => {
      const report = path.join(agent.directory, 'report.json');
      const outcome = await runHolodeckCli(
        ['test', agent.file, ...flags, '--output', report, '--no-save'],
        agent.env,
      );
      expect(outcome.code, outcome.stderr).toBe(0);
      const json = JSON.parse(readFileSync(report, 'utf8'));
      options = json.options;
      return json.cases.map((entry: { name: string }) => entry.name);
    };
    let options: Record<string, unknown> = {};
    expect(await ran('--case', 'oslo', '--case', 'lima')).toEqual(['oslo', 'lima']);
    expect(options).toMatchObject({ cases: ['oslo', 'lima'] });
    expect(await ran('--tag', 'eu', '--limit', '1', '--filter', 'o')).toEqual(['oslo']);
    const sampled = await ran('--sample', '2', '--sample-seed', '3', '--filter', 'o');
    expect(sampled).toHaveLength(2);
    expect(options).toMatchObject({ sample: 2, sample_seed: 3, filter: 'o' });
    expect(sampled.every((name: string) => ['tokyo', 'oslo'].includes(name))).toBe(true);

    const typo = await runHolodeckCli(['test', agent.file, '--case', 'olso', '--no-save'], agent.env);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('--case: no test case is named "olso"');
    expect(typo.stderr).toContain('hint: did you mean "oslo"?');
  });
});

describe('bad case data through holodeck validate', () => {
  const [variant] = backendVariants();
  if (!variant) throw new Error('no backend variant');
  beforeAll(() => variant.start());
  afterAll(() => variant.close());

  it('names the file, line and column, the field, and the fix', async () => {
    const agent = variant.agent(
      { test_cases_file: ['cases.csv', 'cases.jsonl'] },
      {
        'cases.csv': 'name,input,expected_tool\na,Weather in {{ town }}?,x\n',
        'cases.jsonl': '{"name": "b", "input": "Hi", "vars": {"1x": 2}}\n',
      },
    );
    const outcome = await runHolodeckCli(['validate', agent.file], agent.env);
    expect(outcome.code).toBe(2);
    const csv = path.join(agent.directory, 'cases.csv');
    const jsonl = path.join(agent.directory, 'cases.jsonl');
    expect(outcome.stderr).toContain(`error ${csv}:1:3  column 3: unknown column "expected_tool"`);
    expect(outcome.stderr).toContain(
      'hint: did you mean "expected_tools"? (or vars.expected_tool for a variable)',
    );
    expect(outcome.stderr).toContain(
      `error ${jsonl}:1:45  [0].vars.1x: variable name "1x" is not letters, digits and _ (not starting with a digit)`,
    );
    expect(outcome.stderr).toContain(
      'hint: {{ name }} placeholders can only name such variables: rename it, e.g. order_id',
    );
  });
});

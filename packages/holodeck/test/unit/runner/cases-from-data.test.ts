import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadAgent } from '../../../src/load-agent.js';
import { inspectSuite, type PreparedCase } from '../../../src/runner/prepare-suite.js';
import { selectCases } from '../../../src/runner/select-cases.js';
import { type AgentSandbox, BASE, brief, createSandbox, lines } from '../config/agent-sandbox.js';
import { metricInput } from '../evals/metric-input.js';

let sandbox: AgentSandbox;
beforeEach(async () => {
  sandbox = await createSandbox();
});
afterEach(() => sandbox.remove());

async function inspect(...agentLines: string[]) {
  await sandbox.write('agent.yaml', lines(...BASE, ...agentLines));
  const agent = await loadAgent(sandbox.agentFile, { env: {}, homeDir: sandbox.home });
  return inspectSuite(agent, { requireCases: true });
}

/** Issues as `file:line:column path: message | hint`, the file relative to the sandbox. */
function issuesOf(inspection: Awaited<ReturnType<typeof inspect>>): string[] {
  return inspection.issues.map((issue) => `${path.relative(sandbox.dir, issue.file)}:${brief(issue)}`);
}

describe('test cases from CSV, JSONL and JSON files, several files and globs', () => {
  it('reads every kind, in the order listed, a glob in name order', async () => {
    await sandbox.write(
      'cases/a.csv',
      lines(
        'name,input,ground_truth,tags,vars.city,thresholds.rouge',
        'paris,Weather in {{city}}?,Sunny in {{city}},"weather, eu",Paris,0.7',
        ',"A question, with a comma",Yes,,,',
      ),
    );
    await sandbox.write(
      'cases/b.jsonl',
      lines(
        '{"name": "jsonl-one", "input": "Hi {{who}}", "vars": {"who": "Ann"}, "ground_truth": "Hello {{who}}"}',
        '',
        '{"name": "jsonl-two", "input": "Bye", "ground_truth": "Bye"}',
      ),
    );
    await sandbox.write(
      'more.json',
      '[\n  {"name": "json-one", "input": "From JSON", "ground_truth": "JSON"}\n]\n',
    );
    const inspection = await inspect(
      'evaluations:',
      '  metrics:',
      '    - { type: rouge, threshold: 0.3 }',
      'test_cases_file: [cases/*, more.json]',
    );
    expect(issuesOf(inspection)).toEqual([]);
    const cases = inspection.suite?.cases.map((testCase) => testCase.config) ?? [];
    expect(cases.map((testCase) => testCase.name)).toEqual([
      'paris',
      'a.csv row 3',
      'jsonl-one',
      'jsonl-two',
      'json-one',
    ]);
    expect(cases[0]).toMatchObject({
      input: 'Weather in Paris?',
      ground_truth: 'Sunny in Paris',
      tags: ['weather', 'eu'],
      vars: { city: 'Paris' },
      thresholds: { rouge: 0.7 },
      metrics: [{ type: 'rouge', threshold: 0.7 }],
    });
    expect(cases[1]).toEqual({ name: 'a.csv row 3', input: 'A question, with a comma', ground_truth: 'Yes' });
    expect(cases[2]).toMatchObject({ input: 'Hi Ann', ground_truth: 'Hello Ann' });
  });

  it('reports a bad cell at its file:line:column, an unknown column with did-you-mean', async () => {
    await sandbox.write('cases.csv', lines('name,input,ground_truht,turns', 'a,hi,x,y'));
    expect(issuesOf(await inspect('test_cases_file: cases.csv'))).toEqual([
      'cases.csv:1:3 column 3: unknown column "ground_truht" | did you mean "ground_truth"? (or vars.ground_truht for a variable)',
      'cases.csv:1:4 column 4: column "turns" cannot be written in a CSV file: it is a list of mappings | write these cases in a YAML or JSONL test_cases_file, or set it in default_case',
    ]);
    await sandbox.write('cases.csv', lines('name,input,repeat,min_pass_rate', 'a,hi,two,', 'b,,,1.5'));
    expect(issuesOf(await inspect('test_cases_file: cases.csv'))).toEqual([
      'cases.csv:2:3 [0].repeat: expected "auto"; got the string "two"',
      'cases.csv:3:4 [1].min_pass_rate: must be at most 1, got the number 1.5',
      'cases.csv:3:1 [1]: a test case needs "input" or "turns" | add input: <the user message>',
    ]);
  });

  it('reports broken CSV and JSONL syntax with the line', async () => {
    await sandbox.write('cases.csv', lines('name,input', 'a,hi', 'b,"unclosed'));
    expect(issuesOf(await inspect('test_cases_file: cases.csv'))).toEqual([
      'cases.csv:3:1 : invalid CSV: Quote Not Closed: the parsing is finished with an opening quote | every row has as many cells as the header; quote a cell holding a comma, quote or line break ("a, b")',
    ]);
    await sandbox.write(
      'cases.jsonl',
      lines('{"name": "a", "input": "hi"}', '{"name": "b", "input": "x"', 'plain text', '{"name": "c"}'),
    );
    expect(issuesOf(await inspect('test_cases_file: cases.jsonl'))).toEqual([
      expect.stringMatching(
        /^cases\.jsonl:2:\d+ \[1\]: invalid JSON: .* \| each line of a JSONL file is one JSON object/,
      ),
      'cases.jsonl:3:1 [2]: a line of a JSONL file must be a JSON object (one test case) | write one {"name": ..., "input": ...} per line',
      'cases.jsonl:4:1 [3]: a test case needs "input" or "turns" | add input: <the user message>',
    ]);
    await sandbox.write('cases.jsonl', lines('{"name": "a", "input": "hi", "tagz": ["x"]}'));
    expect(issuesOf(await inspect('test_cases_file: cases.jsonl'))).toEqual([
      'cases.jsonl:1:30 [0].tagz: unknown key "tagz" in [0] | did you mean "tags"?',
    ]);
  });

  it('a glob matching nothing and a file of another kind are errors at test_cases_file', async () => {
    await sandbox.write('cases.txt', 'x');
    expect(issuesOf(await inspect('test_cases_file:', '  - data/*.csv', '  - cases.txt'))).toEqual([
      `agent.yaml:8:5 test_cases_file[0]: test cases glob ${path.join(sandbox.dir, 'data/*.csv')} matches no file | check the pattern (relative to agent.yaml's folder); it matches files ending in .yaml, .yml, .json, .jsonl, .ndjson, .csv`,
      `agent.yaml:9:5 test_cases_file[1]: test cases file ${path.join(sandbox.dir, 'cases.txt')} is not a kind holodeck reads (.txt) | name a file ending in one of .yaml, .yml, .json, .jsonl, .ndjson, .csv`,
    ]);
  });
});

describe('vars, {{templates}} and default_case', () => {
  it('default_case fills what a case leaves out: vars and thresholds merge, tags add up', async () => {
    const inspection = await inspect(
      'default_case:',
      '  vars: { shop: Acme, city: Oslo }',
      '  tags: [smoke]',
      '  repeat: 2',
      '  metrics:',
      '    - { type: contains, value: "{{shop}}" }',
      '    - { type: expression, value: "vars.city.length > 3" }',
      'test_cases:',
      '  - name: own-city',
      '    input: Is {{shop}} open in {{city}}?',
      '    vars: { city: Bergen }',
      '    tags: [nordic]',
      '    repeat: 1',
      '  - name: default-city',
      '    input: "{{ city | upper }}"',
    );
    expect(issuesOf(inspection)).toEqual([]);
    const [own, fallback] = inspection.suite?.cases ?? [];
    expect(own?.config).toMatchObject({
      input: 'Is Acme open in Bergen?',
      vars: { shop: 'Acme', city: 'Bergen' },
      tags: ['smoke', 'nordic'],
      repeat: 1,
      metrics: [{ type: 'contains', value: 'Acme' }, { type: 'expression' }],
    });
    expect(fallback?.config).toMatchObject({ input: 'OSLO', repeat: 2, tags: ['smoke'] });
    // The expression reads the case's own vars.
    const outcome = await fallback?.metrics[1]?.evaluate(metricInput({ response: 'x' }), {});
    expect(outcome).toMatchObject({ passed: true });
    const bergen = await own?.metrics[1]?.evaluate(metricInput({ response: 'x' }), {});
    expect(bergen).toMatchObject({ passed: true });
  });

  it('a missing variable is an error naming it, where the template is written', async () => {
    expect(
      issuesOf(
        await inspect(
          'default_case:',
          '  ground_truth: "{{answer}}"',
          'evaluations:',
          '  metrics:',
          '    - { type: contains, value: "{{ sku }}" }',
          'test_cases:',
          '  - name: a',
          '    input: Price of {{ item }}?',
          '    vars: { itme: tea, sku: T-1, answer: "3 EUR" }',
          '  - name: b',
          '    input: hi',
        ),
      ),
    ).toEqual([
      'agent.yaml:14:12 test_cases[0].input: test case "a": {{ item }} names variable "item", which the case does not set | add item to the case\'s vars (or to default_case.vars); the case\'s vars are itme, sku, answer',
      'agent.yaml:8:17 default_case.ground_truth: test case "b": {{ answer }} names variable "answer", which the case does not set | add answer to the case\'s vars (or to default_case.vars); the case sets no vars',
      'agent.yaml:11:32 evaluations.metrics[0].value: test case "b": {{ sku }} names variable "sku", which the case does not set | add sku to the case\'s vars (or to default_case.vars); the case sets no vars',
    ]);
  });

  it('thresholds must name a scored metric of the case, within its range', async () => {
    expect(
      issuesOf(
        await inspect(
          'evaluations:',
          '  metrics:',
          '    - { type: rouge }',
          '    - { type: contains, value: x, name: has-x }',
          'test_cases:',
          '  - name: a',
          '    input: hi',
          '    ground_truth: hello',
          '    thresholds: { rogue: 0.5, has-x: 0.5, rouge: 1.5 }',
        ),
      ),
    ).toEqual([
      'agent.yaml:15:26 test_cases[0].thresholds.rogue: thresholds names metric "rogue", which the case does not have | did you mean "rouge"?',
      'agent.yaml:15:38 test_cases[0].thresholds.has-x: metric "has-x" (contains) is a pass/fail check and has no threshold | remove this threshold; only scored metrics and budgets have a pass mark',
      'agent.yaml:15:50 test_cases[0].thresholds.rouge: threshold 1.5 does not fit metric "rouge" (rouge): Too big: expected number to be <=1 | a score threshold is 0..1; a budget is in its own unit (ms, USD, turns)',
    ]);
  });

  it("a conversation does not take default_case's trajectory checks; a broken JSON file says JSON", async () => {
    const inspection = await inspect(
      'default_case:',
      '  max_tool_calls: 3',
      'test_cases:',
      '  - { name: one, input: hi }',
      '  - { name: chat, turns: [{ input: hi }] }',
    );
    expect(issuesOf(inspection)).toEqual([]);
    const [one, chat] = inspection.suite?.cases ?? [];
    expect(one?.config.max_tool_calls).toBe(3);
    expect(one?.metrics.map((metric) => metric.type)).toContain('tool-trajectory');
    expect(chat?.config.max_tool_calls).toBeUndefined();
    await sandbox.write('cases.json', '[{"name": "a", "input": "hi"');
    const broken = issuesOf(await inspect('test_cases_file: cases.json'));
    expect(broken.length).toBeGreaterThan(0);
    for (const line of broken)
      expect(line).toMatch(/^cases\.json:1:29 : invalid JSON: Flow (map|sequence) in block collection/);
  });

  it('a default_case threshold naming a metric the case lacks is reported at default_case', async () => {
    expect(
      issuesOf(
        await inspect(
          'default_case:',
          '  thresholds: { bleu: 0.4 }',
          'test_cases:',
          '  - name: a',
          '    input: hi',
          '    metrics: [{ type: contains, value: hi }]',
        ),
      ),
    ).toEqual([
      'agent.yaml:8:23 default_case.thresholds.bleu: thresholds names metric "bleu", which the case does not have | its metrics are: "contains"',
    ]);
  });

  it('default_case refuses name, input and turns', async () => {
    const validation = await sandbox.validate(
      lines(...BASE, 'default_case:', '  input: hi', 'test_cases:', '  - { name: a, input: hi }'),
    );
    expect(validation.issues.map(brief)).toEqual([
      '8:3 default_case.input: unknown key "input" in default_case | allowed keys: "vars", "thresholds", "ground_truth", "context", "expected_tools", "forbidden_tools", "expected_tool_sequence", "called_before", "max_tool_calls", "tags", "metrics", "repeat", "min_pass_rate", "expected_verdicts", "expect_killed", "timeout", "limits"',
    ]);
  });
});

describe('--case, --sample, --limit', () => {
  const cases: PreparedCase[] = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'].map((name, index) => ({
    index,
    config: { name, input: name },
    metrics: [],
    turnMetrics: [],
    source: { file: 'agent.yaml', path: ['test_cases', index] },
  }));
  const names = (selected: readonly PreparedCase[]) => selected.map((testCase) => testCase.config.name);

  it('--case takes exact names, and names the closest case for a typo', () => {
    expect(names(selectCases(cases, { caseNames: ['gamma', 'alpha'] }))).toEqual(['alpha', 'gamma']);
    expect(() => selectCases(cases, { caseNames: ['gama'] })).toThrow(
      expect.objectContaining({
        flag: '--case',
        message: expect.stringMatching(/^--case: no test case is named "gama"\n/),
        hint: 'did you mean "gamma"?',
      }),
    );
  });

  it('--sample picks the same k for the same seed whatever the order of the cases; --limit keeps the first n', () => {
    const first = names(selectCases(cases, { sample: 3, sampleSeed: 7 }));
    expect(first).toHaveLength(3);
    expect(names(selectCases([...cases].reverse(), { sample: 3, sampleSeed: 7 })).sort()).toEqual(
      [...first].sort(),
    );
    const seeds = new Set(
      Array.from({ length: 8 }, (_, seed) =>
        names(selectCases(cases, { sample: 2, sampleSeed: seed })).join(),
      ),
    );
    expect(seeds.size).toBeGreaterThan(1);
    expect(names(selectCases(cases, { sample: 9 }))).toEqual(names(cases));
    expect(names(selectCases(cases, { limit: 2 }))).toEqual(['alpha', 'beta']);
    expect(names(selectCases(cases, { filter: 'a', limit: 3 }))).toEqual(['alpha', 'beta', 'gamma']);
  });
});

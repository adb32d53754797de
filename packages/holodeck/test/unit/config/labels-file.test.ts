import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadLabelsFile } from '../../../src/config/index.js';
import { type AgentSandbox, BASE, brief, createSandbox, lines } from './agent-sandbox.js';

let sandbox: AgentSandbox;
beforeEach(async () => {
  sandbox = await createSandbox();
});
afterEach(() => sandbox.remove());

/** agent.yaml with one rubric metric whose labels file is labels.yaml (lines 7 to 12). */
const AGENT = lines(
  ...BASE,
  'evaluations:',
  '  metrics:',
  '    - type: rubric',
  '      value: Polite.',
  '      calibration: labels.yaml',
  '      min_kappa: 0.6',
);

async function issuesWith(labels: string | undefined): Promise<string[]> {
  if (labels !== undefined) await sandbox.write('labels.yaml', labels);
  const result = await sandbox.validate(AGENT);
  return result.issues.map((issue) => `${path.basename(issue.file)}:${brief(issue)}`);
}

describe('labels files (calibration:)', () => {
  it('accepts examples with the fields a metric reads and a label', async () => {
    const labels = lines(
      'examples:',
      '  - input: How do I reset it?',
      '    output: Settings, then Reset.',
      '    expected_output: Open Settings.',
      '    retrieval_context: [Reset is in Settings.]',
      '    label: pass',
      '    score: 0.9',
      '    comment: right',
      '  - input: Hi',
      '    output: ""',
      '    label: fail',
    );
    expect(await issuesWith(labels)).toEqual([]);
    const loaded = await loadLabelsFile(path.join(sandbox.dir, 'labels.yaml'), 'evaluations.metrics[0]');
    expect(loaded.examples).toHaveLength(2);
    expect(loaded.lines).toEqual([2, 9]);
    expect(loaded.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('reports a bad label, an unknown key, a score out of range and a missing output at their lines in the labels file', async () => {
    const labels = lines(
      'examples:',
      '  - input: q',
      '    output: a',
      '    label: maybe',
      '  - input: q',
      '    output: a',
      '    lable: pass',
      '  - input: q',
      '    output: a',
      '    label: fail',
      '    score: 7',
      '  - input: q',
      '    label: pass',
    );
    expect(await issuesWith(labels)).toEqual([
      'labels.yaml:4:12 examples[0].label: expected one of "pass", "fail"; got the string "maybe"',
      'labels.yaml:5:5 examples[1].label: missing required key "label" in examples[1] | one of: "pass", "fail"',
      'labels.yaml:7:5 examples[1].lable: unknown key "lable" in examples[1] | did you mean "label"?',
      'labels.yaml:11:12 examples[2].score: must be at most 1, got the number 7',
      'labels.yaml:12:5 examples[3].output: missing required key "output" in examples[3]',
    ]);
  });

  it('refuses context and retrieval_context together: they are one field', async () => {
    const labels = lines(
      'examples:',
      '  - input: q',
      '    output: a',
      '    context: [x]',
      '    retrieval_context: [y]',
      '    label: pass',
    );
    expect(await issuesWith(labels)).toEqual([
      'labels.yaml:5:5 examples[0].retrieval_context: set either "context" or "retrieval_context", not both: they are the same field | keep retrieval_context (DeepEval) or context (HoloDeck)',
    ]);
  });

  it('accepts a labels file not written yet (test add --label creates it), but not a folder there', async () => {
    expect(await issuesWith(undefined)).toEqual([]);
    await sandbox.write('labels.yaml/inside', 'x');
    expect(await issuesWith(undefined)).toEqual([
      `agent.yaml:11:20 evaluations.metrics[0].calibration: labels file ${path.join(sandbox.dir, 'labels.yaml')} is not a file | point calibration at a YAML file with examples:; relative paths start from ${sandbox.dir}`,
    ]);
  });

  it('reports a file without examples, and YAML that does not parse', async () => {
    expect(await issuesWith('examples: []\n')).toEqual([
      'labels.yaml:1:1 examples: the labels file has no examples | add examples with input, output and label: pass | fail (holodeck test add --label writes them from a run)',
    ]);
    const [broken] = await issuesWith('examples:\n  - input: "q\n');
    expect(broken).toMatch(/^labels\.yaml:\d+:\d+ : invalid YAML: /);
  });

  it('refuses min_kappa without a calibration file, strict_mode of another type, and a min_kappa out of range', async () => {
    const result = await sandbox.validate(
      lines(
        ...BASE,
        'evaluations:',
        '  metrics:',
        '    - type: g-eval',
        '      name: helpful',
        '      criteria: Helps.',
        '      min_kappa: 0.6',
        '    - type: rubric',
        '      value: Polite.',
        '      calibration: labels.yaml',
        '      min_kappa: 2',
        '    - type: contains',
        '      value: x',
        '      strict_mode: true',
      ),
    );
    await sandbox.write('labels.yaml', 'examples: [{input: q, output: a, label: pass}]\n');
    expect(result.issues.map(brief)).toEqual([
      '12:18 evaluations.metrics[0].min_kappa: min_kappa needs a calibration file to measure the judge against | add calibration: labels.yaml (examples with a human label), then run holodeck judge calibrate',
      '16:18 evaluations.metrics[1].min_kappa: must be at most 1, got the number 2',
      '19:7 evaluations.metrics[2].strict_mode: unknown key "strict_mode" in evaluations.metrics[2] | allowed keys: "type", "value", "mode", "name", "weight"',
    ]);
  });
});

describe("the judge's sampling temperature", () => {
  const judge = [
    'evaluations:',
    '  model:',
    '    provider: anthropic',
    '    name: claude-haiku-4-5',
    '    temperature: 0.7',
  ];

  it('is refused when no metric repeats a judgement', async () => {
    const result = await sandbox.validate(
      lines(...BASE, ...judge, '  metrics:', '    - type: rubric', '      value: Polite.'),
    );
    expect(result.issues.map(brief)).toEqual([
      '11:18 evaluations.model.temperature: the judge answers at temperature 0 (so re-runs agree) and uses evaluations.model.temperature only for repeated judgements, which no metric makes: it would have no effect | remove it, or give a g-eval metric samples: 3 (or a judge metric a calibration file) to repeat judgements at this temperature',
    ]);
  });

  it('is accepted with a g-eval of several samples, or a judge metric with labels', async () => {
    const sampled = await sandbox.validate(
      lines(
        ...BASE,
        ...judge,
        '  metrics:',
        '    - type: g-eval',
        '      name: g',
        '      criteria: Helps.',
        '      samples: 3',
      ),
    );
    expect(sampled.issues).toEqual([]);
    await sandbox.write('labels.yaml', 'examples: [{input: q, output: a, label: pass}]\n');
    const labelled = await sandbox.validate(
      lines(
        ...BASE,
        ...judge,
        '  metrics:',
        '    - type: rubric',
        '      value: Polite.',
        '      calibration: labels.yaml',
      ),
    );
    expect(labelled.issues).toEqual([]);
  });
});

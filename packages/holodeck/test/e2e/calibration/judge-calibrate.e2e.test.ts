import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  CLAUDE_CLI_USER_AGENT_PREFIX,
  type FakeAnthropicServer,
  lastUserText,
  reply,
  respond,
  startFakeAnthropic,
  toolUse,
} from '@holodeck/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { createE2eAgent } from '../support/e2e-agent.js';
import { runHolodeckCli } from '../support/run-holodeck-cli.js';

// The judge is scripted from the answer it grades: GOOD passes, BAD fails, and FLIP passes at
// temperature 0 but alternates fail/pass at a sampling temperature (a judge that is not sure).
let fake: FakeAnthropicServer;
let flips = 0;

beforeAll(async () => {
  fake = await startFakeAnthropic({
    repeatLast: true,
    steps: [
      respond((request) => {
        if ((request.headers['user-agent'] ?? '').startsWith(CLAUDE_CLI_USER_AGENT_PREFIX))
          return reply('GOOD answer from the agent');
        const prompt = lastUserText(request);
        const answer = prompt.slice(prompt.indexOf('<agent_response'));
        const temperature = (request.body as { temperature?: number }).temperature;
        let pass = answer.includes('GOOD');
        if (answer.includes('FLIP')) pass = temperature === 0 ? true : flips++ % 2 === 1;
        return toolUse('submit_verdict', {
          reason: pass ? 'meets the rubric' : 'misses the rubric',
          pass,
          score: pass ? 1 : 0,
        });
      }),
    ],
  });
});
afterAll(() => fake.close());
beforeEach(() => {
  flips = 0;
});

const examples = [
  ...Array.from({ length: 4 }, (_, i) => ({ input: `q${i}`, output: `GOOD ${i}`, label: 'pass' })),
  ...Array.from({ length: 3 }, (_, i) => ({ input: `r${i}`, output: `BAD ${i}`, label: 'fail' })),
  { input: 'missed', output: 'BAD but a human liked it', label: 'pass' },
  { input: 'let through', output: 'GOOD but a human did not', label: 'fail' },
  { input: 'unsure', output: 'FLIP', label: 'pass' },
];

function calibratedAgent(minKappa: number) {
  return createE2eAgent(fake.url, {
    config: {
      evaluations: {
        metrics: [
          {
            type: 'rubric',
            name: 'tone',
            value: 'Polite and correct.',
            calibration: 'labels.yaml',
            min_kappa: minKappa,
          },
        ],
      },
      test_cases: [{ name: 'greets', input: 'hello' }],
    },
    files: { 'labels.yaml': stringify({ examples }) },
  });
}

describe('holodeck judge calibrate', () => {
  it('reports agreement, kappa, the confusion matrix, error rates and self-consistency, saves it, exits 1 below min_kappa', async () => {
    const agent = calibratedAgent(0.7);
    const report = path.join(agent.directory, 'calibration.json');
    const outcome = await runHolodeckCli(['judge', 'calibrate', agent.file, '-o', report], agent.env);
    expect(outcome.stderr).toContain('calibrating "tone": 10 examples × 3 judgements');
    expect(outcome.code).toBe(1);
    // TP 5, FN 1, FP 1, TN 3: p_o 0.8, p_e 0.6·0.6 + 0.4·0.4 = 0.52, kappa 0.28 / 0.48 = 0.583.
    expect(outcome.stdout).toContain('agreement         80%');
    expect(outcome.stdout).toMatch(/Cohen's kappa {5}0\.58 \[0\.\d\d, 1\.00\] {2}min_kappa 0\.7: NOT met/);
    expect(outcome.stdout).toContain('base rate         60% labelled pass; the judge passed 60%');
    expect(outcome.stdout).toMatch(/human pass +5 +1\n +human fail +1 +3/);
    expect(outcome.stdout).toMatch(/false pass +25% of the human fails \[/);
    expect(outcome.stdout).toMatch(/false fail +16\.7% of the human passes \[/);
    expect(outcome.stdout).toContain('self-consistency  1 of 10 examples flipped across 3 samples');
    expect(outcome.stdout).toMatch(
      /labels\.yaml:\d+ {2}human pass, judge fail: Rubric not met: misses the rubric/,
    );
    const json = JSON.parse(readFileSync(report, 'utf8'));
    const [tone] = json.metrics;
    expect(tone).toMatchObject({
      metric: 'tone',
      type: 'rubric',
      judged: 10,
      errored: 0,
      min_kappa: 0.7,
      confusion: { true_pass: 5, false_fail: 1, false_pass: 1, true_fail: 3 },
      labels: { file: 'labels.yaml', examples: 10 },
      self_consistency: { samples: 3, examples: 10, flipped: 1 },
    });
    expect(tone.kappa.estimate).toBeCloseTo(0.28 / 0.48, 10);
    expect(tone.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
    const unsure = tone.examples.find((example: { index: number }) => example.index === 9);
    expect(unsure).toMatchObject({ label: 'pass', verdict: 'pass', verdicts: ['pass', 'fail', 'pass'] });
    // The repeats were asked at the sampling temperature (default 1), the first at 0.
    const temperatures = fake.allRequests
      .filter((request) => lastUserText(request).includes('FLIP'))
      .map((request) => (request.body as { temperature?: number }).temperature);
    expect(temperatures.sort()).toEqual([0, 1, 1]);
    // Saved like a run.
    const saved = readdirSync(path.join(agent.directory, '.holodeck', 'calibrations'));
    expect(saved).toEqual([`${json.calibration_id}.json`]);
  });

  it('holodeck test warns about a judge below min_kappa, the gate breaks on it, and a rubric change makes it stale', async () => {
    const agent = calibratedAgent(0.7);
    const calibrated = await runHolodeckCli(['judge', 'calibrate', agent.file, '--samples', '1'], agent.env);
    expect(calibrated.code).toBe(1);
    const tested = await runHolodeckCli(['test', agent.file, '--gate', '--no-save'], agent.env);
    expect(tested.stderr).toMatch(
      /warning judge "tone": kappa 0\.58 \[-?\d\.\d\d, 1\.00\] at 95% is below min_kappa 0\.7 \(calibration [\w-]+\)/,
    );
    expect(tested.stdout).toMatch(
      /broken {2}every judge with min_kappa is calibrated, current and at or above it \(1\): judge "tone": kappa 0\.58/,
    );
    expect(tested.code).toBe(1);
    const yaml = readFileSync(agent.file, 'utf8').replace(
      'Polite and correct.',
      'Polite, correct and brief.',
    );
    writeFileSync(agent.file, yaml);
    const stale = await runHolodeckCli(['test', agent.file, '--no-save'], agent.env);
    expect(stale.stderr).toContain(
      'warning judge "tone": the judge model or the metric settings (criteria, steps, rubric, threshold, ...) changed since its calibration',
    );
    expect(stale.stderr).toContain('run holodeck judge calibrate agent.yaml --metric "tone"');
  });

  it('passes at a min_kappa the judge meets, writes JSON to stdout with -o -, and --no-save saves nothing', async () => {
    const agent = calibratedAgent(0.5);
    const outcome = await runHolodeckCli(
      ['judge', 'calibrate', agent.file, '--metric', 'tone', '--samples', '1', '-o', '-', '--no-save'],
      agent.env,
    );
    expect(outcome.code).toBe(0);
    expect(JSON.parse(outcome.stdout).metrics[0].self_consistency).toMatchObject({
      samples: 1,
      flip_rate: null,
    });
    expect(outcome.stderr).toContain('min_kappa 0.5: met');
    expect(outcome.stderr).toContain(
      'self-consistency  not measured (1 sample per example; use --samples 3)',
    );
    expect(existsSync(path.join(agent.directory, '.holodeck', 'calibrations'))).toBe(false);
  });

  it('says which metrics can be calibrated when --metric names another, and where a labels file is wrong', async () => {
    const agent = calibratedAgent(0.5);
    const unknown = await runHolodeckCli(['judge', 'calibrate', agent.file, '--metric', 'nope'], agent.env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      'error --metric: no judge metric named "nope" in evaluations.metrics\n    hint: the calibrated judge metrics are "tone"',
    );
    writeFileSync(
      path.join(agent.directory, 'labels.yaml'),
      'examples:\n  - input: q\n    output: a\n    label: maybe\n',
    );
    const broken = await runHolodeckCli(['judge', 'calibrate', agent.file], agent.env);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain(
      `${path.join(agent.directory, 'labels.yaml')}:4:12  examples[0].label: expected one of "pass", "fail"; got the string "maybe"`,
    );
  });

  it("test add --label appends a run's answer to the labels file, comments kept and secrets redacted", async () => {
    const agent = createE2eAgent(fake.url, {
      config: {
        evaluations: {
          metrics: [{ type: 'rubric', name: 'tone', value: 'Polite.', calibration: 'labels.yaml' }],
        },
        test_cases: [
          { name: 'greets', input: 'hello, my key is sk-test-holodeck-e2e', ground_truth: 'Hello!' },
        ],
      },
    });
    const tested = await runHolodeckCli(['test', agent.file], agent.env);
    expect(tested.code).toBe(0);
    const added = await runHolodeckCli(
      [
        'test',
        'add',
        agent.file,
        '--from-run',
        'latest',
        '--case',
        'greets',
        '--label',
        'fail',
        '--comment',
        'too curt',
      ],
      agent.env,
    );
    expect(added.code).toBe(0);
    expect(added.stderr).toMatch(
      /labelled case "greets" of run \S+ fail for judge "tone" in \S*labels\.yaml/,
    );
    const labels = path.join(agent.directory, 'labels.yaml');
    writeFileSync(labels, readFileSync(labels, 'utf8').replace('examples:', '# reviewed by Ana\nexamples:'));
    await runHolodeckCli(
      ['test', 'add', agent.file, '--from-run', 'latest', '--case', 'greets', '--label', 'pass'],
      agent.env,
    );
    const text = readFileSync(labels, 'utf8');
    expect(text).toContain('# reviewed by Ana');
    expect(text).not.toContain('sk-test-holodeck-e2e');
    const parsed = (await import('yaml')).parse(text);
    expect(parsed.examples).toEqual([
      {
        input: expect.stringContaining('my key is'),
        output: 'GOOD answer from the agent',
        expected_output: 'Hello!',
        label: 'fail',
        comment: 'too curt',
        source: expect.stringMatching(/^run \S+, case greets, attempt 1$/),
      },
      expect.objectContaining({ label: 'pass', output: 'GOOD answer from the agent' }),
    ]);
    const bad = await runHolodeckCli(
      ['test', 'add', agent.file, '--from-run', 'latest', '--case', 'greets', '--label', 'maybe'],
      agent.env,
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('error --label: is pass or fail, got "maybe"');
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  apiError,
  CLAUDE_CLI_USER_AGENT_PREFIX,
  lastUserText,
  reply,
  respond,
  startFakeAnthropic,
} from '@holodeck/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createE2eAgent } from './support/e2e-agent.js';
import { runHolodeckCli } from './support/run-holodeck-cli.js';

// One fake model for the file, scripted to be flaky on purpose. It answers from the user message:
// "steady" always passes; "flaky" passes on a seeded coin (the k-th flaky request gets the k-th
// draw, so a run's pass count does not depend on the order attempts run in); "regress" passes
// until the test switches `regressed` on. Requests that are not the Claude CLI's are the judge's:
// it answers 500 (a grader that could not run).
let fake: Awaited<ReturnType<typeof startFakeAnthropic>>;
let regressed = false;
// While true, the agent's own request for a "fragile" question fails (the case errors).
let fragileDown = false;
let seed = 12345;
function coin(): boolean {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return seed >>> 31 === 1;
}
const PASS = 'The answer is PASS-TOKEN.';
const FAIL = 'I am not sure.';

beforeAll(async () => {
  fake = await startFakeAnthropic({
    repeatLast: true,
    steps: [
      respond((request) => {
        if (!(request.headers['user-agent'] ?? '').startsWith(CLAUDE_CLI_USER_AGENT_PREFIX))
          return apiError(500, { type: 'api_error', message: 'judge is down' });
        const text = lastUserText(request);
        if (text.includes('fragile') && fragileDown)
          return apiError(400, { type: 'invalid_request_error', message: 'scripted failure' });
        if (text.includes('flaky')) return reply(coin() ? PASS : FAIL);
        if (text.includes('regress')) return reply(regressed ? FAIL : PASS);
        return reply(PASS);
      }),
    ],
  });
});
afterAll(() => fake.close());

const contains = [{ type: 'contains', value: 'PASS-TOKEN' }];

function agentWith(cases: Record<string, unknown>[]) {
  return createE2eAgent(fake.url, { config: { test_cases: cases } });
}

function readJson(file: string) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

describe('verdicts', () => {
  it('repeat: auto stops a deterministic case at min and spends more on the flaky one', async () => {
    const agent = agentWith([
      { name: 'steady', input: 'a steady question', metrics: contains, repeat: 'auto' },
      { name: 'flaky', input: 'a flaky question', metrics: contains, repeat: 'auto', min_pass_rate: 0.8 },
    ]);
    const report = path.join(agent.directory, 'auto.json');
    const outcome = await runHolodeckCli(['test', agent.file, '-o', report, '-c', '2'], agent.env);
    const json = readJson(report);
    const [steady, flaky] = json.cases;
    expect(steady.attempts).toHaveLength(3);
    expect(steady.repeat_stop).toMatchObject({ rule: 'decided', reason: 'decided after 3: ≥ 100% with 95%' });
    expect(flaky.attempts.length).toBeGreaterThan(3);
    expect(flaky.attempts.length).toBeLessThanOrEqual(10);
    expect(flaky.repeat_stop.reason).toMatch(
      /^(decided after \d+: [≥<] 80% with 95%|stopped at the cap of 10: .*)$/,
    );
    // The interval is in the JSON, the terminal and the summary line, with its level named.
    expect(steady.pass_interval).toMatchObject({ upper: 1, confidence: 0.95, method: 'rule-of-three' });
    expect(outcome.stdout).toMatch(/steady +PASS +3\/3 \[36\.8%, 100%\] pass@3 1 pass\^3 1/);
    expect(outcome.stdout).toMatch(/finished attempts passed, \[[\d.]+%, [\d.]+%\] at 95%/);
  });

  it('a grader that cannot run makes the case ERRORED, not failed, in every report', async () => {
    const agent = agentWith([
      {
        name: 'judged',
        input: 'a judged question',
        metrics: [{ type: 'rubric', value: 'Says PASS-TOKEN.' }],
      },
      { name: 'fine', input: 'a steady question', metrics: contains },
    ]);
    const json = path.join(agent.directory, 'judged.json');
    const outcome = await runHolodeckCli(['test', agent.file, '-o', json], agent.env);
    expect(outcome.code).toBe(1);
    const report = readJson(json);
    expect(report.summary).toMatchObject({ total: 2, passed: 1, failed: 0, errored: 1, pass_rate: 1 });
    expect(report.cases[0]).toMatchObject({ state: 'errored', errored: true, passed: false });
    expect(report.cases[0].error).toMatch(/^metric rubric could not run: .*500/);
    expect(outcome.stdout).toMatch(/judged +ERROR +metric rubric could not run/);
    expect(outcome.stdout).toMatch(/2 cases: 1 passed, 0 failed, 1 errored/);
    const junit = path.join(agent.directory, 'judged.xml');
    await runHolodeckCli(['test', agent.file, '-o', junit, '--no-save'], agent.env);
    expect(readFileSync(junit, 'utf8')).toMatch(
      /<error message="metric rubric could not run: [^"]*" type="MetricError">/,
    );
  });

  it('flags a real regression, and not a noise-only change between two runs of a flaky suite', async () => {
    const cases = [
      { name: 'regress', input: 'a regress question', metrics: contains, repeat: 4 },
      { name: 'flaky', input: 'a flaky question', metrics: contains, repeat: 8, min_pass_rate: 0.3 },
      { name: 'steady', input: 'a steady question', metrics: contains, repeat: 2 },
    ];
    const agent = agentWith(cases);
    regressed = false;
    const first = await runHolodeckCli(['test', agent.file], agent.env);
    expect(first.stderr).toMatch(/run saved/);
    // Noise only: the model did not change; the flaky case drew other coins.
    const noiseFile = path.join(agent.directory, 'noise.json');
    const noise = await runHolodeckCli(
      ['test', agent.file, '--baseline', 'latest', '-o', noiseFile],
      agent.env,
    );
    const noiseReport = readJson(noiseFile);
    expect(noiseReport.comparison.counts).toMatchObject({ regressed: 0, improved: 0 });
    expect(noiseReport.comparison.suite.verdict).toBe('no-significant-change');
    expect(noise.stdout).toMatch(/0 regressed · 0 improved · 3 no significant change/);
    // A real regression: the model now fails one case every time.
    regressed = true;
    const regressionFile = path.join(agent.directory, 'regression.json');
    const regression = await runHolodeckCli(
      ['test', agent.file, '--baseline', 'latest', '-o', regressionFile],
      agent.env,
    );
    expect(regression.code).toBe(1);
    const comparison = readJson(regressionFile).comparison;
    const entry = comparison.cases.find((item: { name: string }) => item.name === 'regress');
    expect(entry).toMatchObject({
      change: 'regressed',
      baseline: { passed: 4, finished: 4 },
      current: { passed: 0, finished: 4 },
    });
    expect(entry.delta.upper).toBeLessThan(0);
    expect(regression.stdout).toMatch(
      /REGRESSED +regress +4\/4 → 0\/4, −100 points \[−100, −[\d.]+\] at 95%/,
    );
    regressed = false;
  });

  it('approve records a baseline; the gate holds on it and breaks on a regression', async () => {
    const agent = agentWith([
      { name: 'regress', input: 'a regress question', metrics: contains, repeat: 3 },
      { name: 'steady', input: 'a steady question', metrics: contains },
    ]);
    regressed = false;
    const filtered = await runHolodeckCli(['test', agent.file, '--filter', 'steady'], agent.env);
    expect(filtered.code).toBe(0);
    const refused = await runHolodeckCli(['test', 'approve', 'latest', agent.file], agent.env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /Cannot approve run .*: 1 case\(s\) of the suite missing \(a --filter, --tag or --shard run\?\): regress/,
    );
    await runHolodeckCli(['test', agent.file], agent.env);
    const approved = await runHolodeckCli(['test', 'approve', 'latest', agent.file], agent.env);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toMatch(/^approved run \S+ as the baseline: .*approved-baseline\.json\n$/);
    const held = await runHolodeckCli(['test', agent.file, '--gate'], agent.env);
    expect(held.code).toBe(0);
    expect(held.stdout).toContain('Gate: HELD');
    regressed = true;
    const broken = await runHolodeckCli(['test', agent.file, '--gate', '--baseline', 'approved'], agent.env);
    regressed = false;
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(/REGRESSED +regress +3\/3 → 0\/3/);
    expect(broken.stdout).toContain('Gate: BROKEN');
    expect(broken.stdout).toMatch(/ {2}broken {2}every required case passes \(all required\): regress/);
    expect(broken.stdout).toMatch(
      / {2}broken {2}no regression against the approved baseline approved:\S+: regress/,
    );
  });

  it('on GitHub Actions appends the step summary and annotates the failing case at its agent.yaml line', async () => {
    const agent = agentWith([
      { name: 'fine', input: 'a steady question', metrics: contains },
      { name: 'wrong', input: 'a regress question', metrics: [{ type: 'contains', value: 'NEVER' }] },
    ]);
    regressed = false;
    const summary = path.join(agent.directory, 'step-summary.md');
    const copy = path.join(agent.directory, 'ci-summary.md');
    const env = {
      ...agent.env,
      GITHUB_ACTIONS: 'true',
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_WORKSPACE: agent.directory,
    };
    const outcome = await runHolodeckCli(['test', agent.file, '--ci-summary', copy], env);
    expect(outcome.code).toBe(1);
    const yamlLines = readFileSync(agent.file, 'utf8').split('\n');
    const line = yamlLines.findIndex((text) => text.includes('name: wrong')) + 1;
    expect(outcome.stdout).toContain(
      `::error file=agent.yaml,line=${line},title=HoloDeck%3A wrong::failing: contains failed`,
    );
    const markdown = readFileSync(summary, 'utf8');
    expect(markdown).toContain('**1/2 passed** · 1 failed · 0 errored');
    expect(markdown).toContain('| wrong | failing |');
    expect(readFileSync(copy, 'utf8')).toBe(markdown);
    // An unwritable summary is a warning; the exit code stays the tests' own.
    const blocked = await runHolodeckCli(['test', agent.file, '--filter', 'fine', '--no-save'], {
      ...env,
      GITHUB_STEP_SUMMARY: path.join(agent.directory, 'missing-folder', 'x', 'summary.md'),
    });
    expect(blocked.code).toBe(0);
    expect(blocked.stderr).toMatch(/warning could not write the CI summary to .*summary\.md/);
  });

  it('--shard k/n runs a share of the suite; merge combines the shards into one run', async () => {
    const agent = agentWith(
      ['one', 'two', 'three', 'four', 'five'].map((name) => ({
        name,
        input: `a steady question ${name}`,
        metrics: contains,
      })),
    );
    const files = [1, 2].map((index) => path.join(agent.directory, `shard-${index}.json`));
    for (const [index, file] of files.entries())
      expect(
        (
          await runHolodeckCli(
            ['test', agent.file, '--shard', `${index + 1}/2`, '-o', file, '--no-save'],
            agent.env,
          )
        ).code,
      ).toBe(0);
    const sizes = files.map((file) => readJson(file).cases.length);
    expect(sizes.sort()).toEqual([2, 3]);
    const merged = path.join(agent.directory, 'merged.json');
    const outcome = await runHolodeckCli(
      ['test', 'merge', ...files, '-o', merged, '--save-to', agent.file],
      agent.env,
    );
    expect(outcome.code).toBe(0);
    expect(outcome.stderr).toMatch(/merged 2 runs: 5 cases, 5 passed, 0 failed, 0 errored/);
    const report = readJson(merged);
    expect(report.cases.map((entry: { name: string }) => entry.name)).toEqual([
      'one',
      'two',
      'three',
      'four',
      'five',
    ]);
    expect(report.options.shard).toBeUndefined();
    const twice = await runHolodeckCli(['test', 'merge', files[0] ?? '', files[0] ?? ''], agent.env);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/Cannot merge: case "\S+" is in both .*shard-1\.json and .*shard-1\.json/);
  });

  it('--max-cost stops starting attempts at the budget, saves a marked partial run and exits 1', async () => {
    const agent = agentWith(
      ['a', 'b', 'c'].map((name) => ({ name, input: `a steady question ${name}`, metrics: contains })),
    );
    const report = path.join(agent.directory, 'budget.json');
    const outcome = await runHolodeckCli(
      ['test', agent.file, '-c', '1', '--max-cost', '0.000001', '-o', report],
      agent.env,
    );
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toMatch(
      /error the run stopped at its budget: --max-cost \$0\.000001 reached \(\$[\d.]+ spent\); 2 cases not finished, marked stopped/,
    );
    const json = readJson(report);
    expect(json).toMatchObject({ interrupted: true, budget: { max_cost_usd: 0.000001, reached: true } });
    expect(json.cases.map((entry: { state: string }) => entry.state)).toEqual([
      'passing',
      'stopped',
      'stopped',
    ]);
    const bad = await runHolodeckCli(['test', agent.file, '--max-cost', 'lots'], agent.env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--max-cost: needs an amount of US dollars above 0, e.g. 2.50, got "lots"');
  });

  /** The questions the agent was asked (not the judge) since request `from`. */
  function askedSince(from: number): string[] {
    return fake.requests
      .slice(from)
      .filter((request) => (request.headers['user-agent'] ?? '').startsWith(CLAUDE_CLI_USER_AGENT_PREFIX))
      .flatMap((request) => /a \w+ question(?: \w\b)?/.exec(lastUserText(request))?.[0] ?? []);
  }

  it('--retry-errored re-runs only the errored cases and saves them merged with the rest', async () => {
    const agent = agentWith([
      { name: 'steady', input: 'a steady question', metrics: contains },
      { name: 'fragile', input: 'a fragile question', metrics: contains },
    ]);
    fragileDown = true;
    const first = await runHolodeckCli(
      ['test', agent.file, '-o', path.join(agent.directory, 'first.json')],
      agent.env,
    );
    fragileDown = false;
    expect(first.code).toBe(1);
    const saved = readJson(path.join(agent.directory, 'first.json'));
    expect(saved.cases.map((entry: { state: string }) => entry.state)).toEqual(['passing', 'errored']);

    const before = fake.requests.length;
    const merged = path.join(agent.directory, 'merged.json');
    const retry = await runHolodeckCli(
      ['test', agent.file, '--retry-errored', saved.run_id, '-o', merged],
      agent.env,
    );
    expect(retry.code).toBe(0);
    expect(retry.stderr).toContain(
      `continuing run ${saved.run_id}: running the 1 case that errored again; the other 1 come from it as saved`,
    );
    expect(askedSince(before).every((text) => text.includes('fragile'))).toBe(true);
    expect(askedSince(before).length).toBeGreaterThan(0);
    const report = readJson(merged);
    expect(report.run_id).not.toBe(saved.run_id);
    expect(report.continued_from).toEqual({
      run_id: saved.run_id,
      mode: 'retry-errored',
      cases: ['fragile'],
    });
    expect(report.summary).toMatchObject({ total: 2, passed: 2, errored: 0 });
    // The steady case is the saved one, attempt for attempt.
    expect(report.cases[0]).toEqual(saved.cases[0]);
    expect(report.cases[1]).toMatchObject({ name: 'fragile', state: 'passing' });
    expect(retry.stderr).toMatch(/run saved: .* \(id \S+\)/);

    const again = await runHolodeckCli(['test', agent.file, '--retry-errored', report.run_id], agent.env);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(
      `--retry-errored: run ${report.run_id} has no errored case: nothing to retry`,
    );
    const clash = await runHolodeckCli(
      ['test', agent.file, '--retry-errored', saved.run_id, '--filter', 'steady'],
      agent.env,
    );
    expect(clash.code).toBe(2);
    expect(clash.stderr).toContain(
      '--retry-errored: cannot be combined with --filter: the continued run keeps the selection and repeats of the run it continues',
    );
  });

  it('--resume finishes an interrupted run: only the cases it did not finish run', async () => {
    const agent = agentWith(
      ['a', 'b', 'c'].map((name) => ({ name, input: `a steady question ${name}`, metrics: contains })),
    );
    const stopped = await runHolodeckCli(
      ['test', agent.file, '-c', '1', '--max-cost', '0.000001'],
      agent.env,
    );
    expect(stopped.code).toBe(1);
    const before = fake.requests.length;
    const resumed = path.join(agent.directory, 'resumed.json');
    const outcome = await runHolodeckCli(
      ['test', agent.file, '--resume', 'latest', '-o', resumed],
      agent.env,
    );
    expect(outcome.code).toBe(0);
    expect(askedSince(before).sort()).toEqual(['a steady question b', 'a steady question c']);
    const report = readJson(resumed);
    expect(report.continued_from).toMatchObject({ mode: 'resume', cases: ['b', 'c'] });
    expect(report.interrupted).toBeUndefined();
    expect(report.cases.map((entry: { state: string }) => entry.state)).toEqual([
      'passing',
      'passing',
      'passing',
    ]);
    // `latest` for a baseline is the resumed (complete) run, not the interrupted one.
    const compared = await runHolodeckCli(
      ['test', agent.file, '--baseline', 'latest', '--no-save'],
      agent.env,
    );
    expect(compared.stdout).toContain(`Compared with baseline run ${report.run_id}:`);

    const complete = await runHolodeckCli(['test', agent.file, '--resume', report.run_id], agent.env);
    expect(complete.code).toBe(2);
    expect(complete.stderr).toContain(
      `--resume: run ${report.run_id} was not interrupted: every case of it finished\n    hint: use --retry-errored ${report.run_id} to re-run its errored cases, or run the suite again`,
    );
  });
});

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { backendVariants, type ModelAnswer, type SeenRequest } from '../both-backends/backend-variants.js';
import { favourableVerdict } from '../both-backends/favourable-verdict.js';
import { runHolodeckCli } from '../support/run-holodeck-cli.js';

// `holodeck test regrade <run>`: a saved run's transcripts graded again with the suite's current
// metrics, without running the agent; the judges live, or answered from the recording (--replay).

function model(request: SeenRequest): ModelAnswer {
  if (request.verdictSchema) return { kind: 'verdict', verdict: favourableVerdict(request.verdictSchema) };
  return { kind: 'reply', text: 'Your order has shipped with DHL.' };
}

const CASES = [
  {
    name: 'shipped-order',
    input: 'Where is my order?',
    metrics: [
      { type: 'contains', name: 'says-shipped', value: 'shipped' },
      { type: 'g-eval', name: 'helpful', criteria: 'The answer says where the order is.', threshold: 0.5 },
    ],
  },
];

function savedRuns(directory: string) {
  const runs = path.join(directory, '.holodeck', 'runs');
  return readdirSync(runs)
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(readFileSync(path.join(runs, name), 'utf8')));
}

describe.each(backendVariants())('holodeck test regrade on the $name backend', (variant) => {
  beforeAll(() => variant.start());
  afterEach(() => variant.discardScript());
  afterAll(() => variant.close());

  it('grades the saved answers with the changed metrics, judges replayed, the agent not run', async () => {
    variant.script(...Array.from({ length: 10 }, () => variant.respond(model)));
    const agent = variant.agent({ test_cases: CASES });
    const first = await runHolodeckCli(['test', agent.file, '--record'], agent.env);
    expect(first.code, first.stderr).toBe(0);
    const [original] = savedRuns(agent.directory);
    writeFileSync(agent.file, readFileSync(agent.file, 'utf8').replace('value: shipped', 'value: refunded'));
    await variant.close();
    const regraded = await runHolodeckCli(
      ['test', 'regrade', original.run_id, agent.file, '--replay'],
      agent.env,
    );
    await variant.start();
    expect(regraded.code, regraded.stderr).toBe(1);
    expect(regraded.stderr).toContain(`regraded from ${original.run_id}`);
    const latest = savedRuns(agent.directory).find((run) => run.run_id !== original.run_id);
    expect(latest.regraded_from).toBe(original.run_id);
    const metrics = latest.cases[0].attempts[0].metrics.map((metric: { name: string; passed: boolean }) => [
      metric.name,
      metric.passed,
    ]);
    expect(metrics).toEqual([
      ['says-shipped', false],
      ['helpful', true],
    ]);
    expect(latest.cases[0].response).toBe('Your order has shipped with DHL.');
  });

  it('--metrics grades only the named metrics; an unknown name is exit 2', async () => {
    variant.script(...Array.from({ length: 10 }, () => variant.respond(model)));
    const agent = variant.agent({ test_cases: CASES });
    expect((await runHolodeckCli(['test', agent.file], agent.env)).code).toBe(0);
    const [original] = savedRuns(agent.directory);
    variant.discardScript();
    const only = await runHolodeckCli(
      ['test', 'regrade', 'latest', agent.file, '--metrics', 'says-shipped', '--no-save'],
      agent.env,
    );
    expect(only.code, only.stderr).toBe(0);
    // No judge asked (helpful kept its saved outcome), the agent never ran.
    expect(variant.requests()).toHaveLength(0);
    const unknown = await runHolodeckCli(
      ['test', 'regrade', original.run_id, agent.file, '--metrics', 'nope'],
      agent.env,
    );
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--metrics: no metric named "nope" in the suite');
  });
});

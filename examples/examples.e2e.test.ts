import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateAgent } from '../packages/holodeck/src/load-agent.js';
import { EXAMPLES_DIR, runFromRepoRoot as run } from './run-from-repo-root.js';

const examples = EXAMPLES_DIR;

describe('examples/', () => {
  const agents = readdirSync(examples, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(examples, entry.name, 'agent.yaml'));

  it.each(agents)('%s is valid with no warnings', async (file) => {
    const { issues, warnings } = await validateAgent(file, {
      env: { ANTHROPIC_API_KEY: 'x', OPENAI_API_KEY: 'x' },
    });
    expect(issues).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('npm run demo answers from the real function tool through the real CLI, and removes its temporary HOME', async () => {
    // Its own TMPDIR, so demos of other test files running at the same time do not count.
    const demoTmp = mkdtempSync(path.join(tmpdir(), 'demo-tmp-'));
    const demoHomes = () => readdirSync(demoTmp).filter((name) => name.startsWith('holodeck-demo-home-'));
    const outcome = await run(['examples/run-offline-demo.mjs', 'chat'], { TMPDIR: demoTmp });
    expect(outcome.stderr).not.toMatch(/warning/i);
    expect(outcome).toMatchObject({
      code: 0,
      stdout: 'Your order A-1001 has shipped with DHL; the total was $54.9.\n',
    });
    expect(demoHomes()).toEqual([]);
  });

  it('npm run demo:test runs the example suite: every metric family, a conversation, repeats', async () => {
    const report = path.join(mkdtempSync(path.join(tmpdir(), 'demo-report-')), 'report.json');
    const outcome = await run(['examples/run-offline-demo.mjs', 'test', '--no-save', '--output', report]);
    expect(outcome.code).toBe(0);
    const json = JSON.parse(readFileSync(report, 'utf8'));
    expect(json.summary).toMatchObject({ total: 5, passed: 5, failed: 0, errored: 0 });
    const types = new Set(
      json.cases.flatMap(
        (testCase: {
          attempts: { metrics: { type: string }[]; turns?: { metrics: { type: string }[] }[] }[];
        }) =>
          testCase.attempts.flatMap((attempt) => [
            ...attempt.metrics.map((metric) => metric.type),
            ...(attempt.turns ?? []).flatMap((turn) => turn.metrics.map((metric) => metric.type)),
          ]),
      ),
    );
    for (const type of [
      'contains',
      'regex',
      'tool-calls',
      'rouge',
      'bleu',
      'meteor',
      'g-eval',
      'rubric',
      'faithfulness',
      'code',
      'latency',
      'turns',
    ]) {
      expect(types).toContain(type);
    }
    const conversation = json.cases.find(
      (testCase: { name: string }) => testCase.name === 'follow-up-conversation',
    );
    expect(conversation.attempts).toHaveLength(2);
    expect(conversation.attempts[0].turns).toHaveLength(2);
  });
});

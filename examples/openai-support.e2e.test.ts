import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateAgent } from '../packages/holodeck/src/load-agent.js';
import { EXAMPLES_DIR, runFromRepoRoot as run } from './run-from-repo-root.js';

// examples/openai-support: the customer-support agent on provider openai, run offline by
// `npm run demo:openai` / `npm run demo:openai:test` against the fake OpenAI-compatible server,
// in-process on the AI SDK (no Claude CLI), with the real function tool of ../customer-support.
const examples = EXAMPLES_DIR;
const agentFile = path.join(examples, 'openai-support', 'agent.yaml');
const judgeCache = path.join(examples, 'openai-support', '.holodeck', 'cache', 'judge');

interface ReportAttempt {
  metrics: { type: string; passed: boolean }[];
  turns?: { metrics: { type: string; passed: boolean }[] }[];
  cost_usd: number | null;
  tool_calls: { name: string }[];
}

describe('examples/openai-support', () => {
  it('is valid with no warnings, with the backend rules and from the CLI', async () => {
    const { issues, warnings } = await validateAgent(agentFile, {
      env: { OPENAI_API_KEY: 'x' },
      homeDir: mkdtempSync(path.join(tmpdir(), 'openai-support-home-')),
    });
    expect(issues).toEqual([]);
    expect(warnings).toEqual([]);
    const cli = await run(['packages/holodeck/bin/holodeck.js', 'validate', agentFile], {
      OPENAI_API_KEY: 'x',
    });
    expect(cli.stderr).toBe('');
    expect(cli).toMatchObject({ code: 0, stdout: expect.stringMatching(/agent\.yaml is valid\n$/) });
  });

  it('npm run demo:openai answers from the real function tool, on the AI SDK', async () => {
    const outcome = await run(['examples/run-offline-demo.mjs', 'openai-support', 'chat']);
    expect(outcome.stderr).not.toMatch(/warning/i);
    expect(outcome).toMatchObject({
      code: 0,
      // DHL and $54.9 exist only in ../customer-support/tools/orders.mjs: the tool ran.
      stdout: 'Your order A-1001 has shipped with DHL; the total was $54.9.\n',
    });
    const json = await run(['examples/run-offline-demo.mjs', 'openai-support', 'chat', '--json']);
    expect(json.code).toBe(0);
    const result = JSON.parse(json.stdout);
    expect(result).toMatchObject({
      is_error: false,
      num_turns: 2,
      // Chat Completions reports tokens: the cost is theirs at gpt-4o-mini's list price.
      cost_usd: expect.any(Number),
      tool_calls: [{ name: 'lookup_order', arguments: { order_id: 'A-1001' } }],
      tool_results: [{ is_error: false, result: expect.stringContaining('"carrier":"DHL"') }],
    });
  });

  it('npm run demo:openai:test passes its suite: deterministic, NLP, judge, RAG and code metrics', async () => {
    // Judge verdicts are cached next to agent.yaml: without this, a second run would not ask the judge.
    rmSync(judgeCache, { recursive: true, force: true });
    const report = path.join(mkdtempSync(path.join(tmpdir(), 'openai-demo-report-')), 'report.json');
    const outcome = await run([
      'examples/run-offline-demo.mjs',
      'openai-support',
      'test',
      '--no-save',
      '--output',
      report,
    ]);
    expect(outcome.stderr).not.toMatch(/warning/i);
    expect(outcome.code).toBe(0);
    const json = JSON.parse(readFileSync(report, 'utf8'));
    expect(json.summary).toMatchObject({ total: 4, passed: 4, failed: 0, errored: 0 });
    expect(json.summary.cost_usd).toBeGreaterThan(0);
    const attempts: ReportAttempt[] = json.cases.flatMap(
      (testCase: { attempts: ReportAttempt[] }) => testCase.attempts,
    );
    const metrics = attempts.flatMap((attempt) => [
      ...attempt.metrics,
      ...(attempt.turns ?? []).flatMap((turn) => turn.metrics),
    ]);
    expect(metrics.filter((metric) => !metric.passed)).toEqual([]);
    const types = new Set(metrics.map((metric) => metric.type));
    for (const type of [
      'contains',
      'regex',
      'icontains-all',
      'tool-calls',
      'rouge',
      'bleu',
      'meteor',
      'g-eval',
      'rubric',
      'faithfulness',
      'answer_relevancy',
      'contextual_recall',
      'code',
    ]) {
      expect(types).toContain(type);
    }
    expect(attempts.every((attempt) => typeof attempt.cost_usd === 'number' && attempt.cost_usd > 0)).toBe(
      true,
    );
    // The judge ran on the agent's own OpenAI model, through the fake server, and cached its verdicts.
    expect(existsSync(judgeCache)).toBe(true);
    const cachedModels = new Set(
      readdirSync(judgeCache).map(
        (file) => JSON.parse(readFileSync(path.join(judgeCache, file), 'utf8')).model,
      ),
    );
    expect([...cachedModels]).toEqual(['openai:gpt-4o-mini']);
  });
});

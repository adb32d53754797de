import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLES_DIR, runFromRepoRoot as run } from './run-from-repo-root.js';

// examples/docs-assistant: a Claude agent with two retrieval tools (documents in markdown, HTML,
// PDF and DOCX; a CSV FAQ), run offline by `npm run demo:docs` against the fake Anthropic API
// (model and judge: docs-assistant/offline-model.mjs) and the fake OpenAI embeddings API, through
// the real CLI and the real Claude Code CLI.
const example = path.join(EXAMPLES_DIR, 'docs-assistant');

interface ReportMetric {
  type: string;
  passed: boolean;
  score: number;
  reason?: string;
  error?: string;
}
interface ReportAttempt {
  metrics: ReportMetric[];
  tool_calls: { name: string }[];
  tool_results: { result: string }[];
  turns?: { metrics: ReportMetric[]; tool_calls: { name: string }[]; tool_results: { result: string }[] }[];
}

describe('examples/docs-assistant (npm run demo:docs)', () => {
  it('ingests incrementally, answers from the documents, and passes its suite graded on what was retrieved', async () => {
    // A fresh index and judge cache, as a new user has.
    rmSync(path.join(example, '.holodeck'), { recursive: true, force: true });

    const ingest = await run(['examples/run-offline-demo.mjs', 'docs-assistant', 'ingest']);
    expect(ingest.code).toBe(0);
    expect(ingest.stdout).toMatch(
      /^✓ handbook: 4 files \(4 indexed, 0 unchanged, 0 removed\), \d+ chunks, \d+ embedded → .*docs-assistant\.sqlite\n✓ faq: 1 file \(1 indexed, 0 unchanged, 0 removed\), 4 chunks, 4 embedded → /,
    );
    for (const file of ['handbook.md', 'security.html', 'warranty.pdf', 'leave-policy.docx'])
      expect(ingest.stderr).toContain(`handbook: indexed ${file}`);
    const again = await run(['examples/run-offline-demo.mjs', 'docs-assistant', 'ingest']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(
      /handbook: 4 files \(0 indexed, 4 unchanged, 0 removed\), \d+ chunks, 0 embedded/,
    );
    expect(again.stdout).toContain('faq: 1 file (0 indexed, 1 unchanged, 0 removed), 4 chunks, 0 embedded');

    const chat = await run(['examples/run-offline-demo.mjs', 'docs-assistant']);
    expect(chat.stderr).not.toMatch(/warning/i);
    expect(chat).toMatchObject({
      code: 0,
      // Only handbook.md says this: the answer came through handbook_search.
      stdout:
        'Submit expenses within 30 days of the purchase, through the finance portal. (source: handbook.md, Expenses)\n',
    });

    const report = path.join(mkdtempSync(path.join(tmpdir(), 'docs-demo-report-')), 'report.json');
    const test = await run([
      'examples/run-offline-demo.mjs',
      'docs-assistant',
      'test',
      '--no-save',
      '--output',
      report,
    ]);
    expect(test.stderr).not.toMatch(/warning/i);
    expect(test.code).toBe(0);
    const json = JSON.parse(readFileSync(report, 'utf8'));
    expect(json.summary).toMatchObject({ total: 5, passed: 5, failed: 0, errored: 0 });
    const byName = new Map<string, ReportAttempt>(
      json.cases.map((testCase: { name: string; attempts: ReportAttempt[] }) => [
        testCase.name,
        testCase.attempts[0],
      ]),
    );
    const rag = (metrics: ReportMetric[]) => metrics.filter((metric) => metric.type === 'faithfulness');

    // Single-turn cases: no `context` in agent.yaml, so faithfulness read the passages the
    // search returned (without them it would be an error, "faithfulness needs context").
    for (const name of ['expenses-deadline', 'laptop-warranty', 'lost-laptop', 'vpn']) {
      const attempt = byName.get(name);
      expect(attempt?.tool_results[0]?.result).toMatch(/^\[1\] source: /);
      expect(rag(attempt?.metrics ?? [])).toEqual([
        expect.objectContaining({
          passed: true,
          score: 1,
          reason: '1 of 1 claims supported by the context.',
        }),
      ]);
    }
    expect(byName.get('laptop-warranty')?.tool_results[0]?.result).toMatch(
      /^\[1\] source: warranty\.pdf \| page: 1 \|/,
    );
    expect(byName.get('vpn')?.tool_results[0]?.result).toMatch(
      /^\[1\] source: faq\.csv \| category: it \| chunk: faq\.csv#vpn \|/,
    );
    expect(
      byName.get('expenses-deadline')?.metrics.find((metric) => metric.type === 'contextual_relevancy'),
    ).toMatchObject({
      passed: true,
    });

    // The conversation: turn 2 searched nothing and was still graded on the passages of turn 1.
    const turns = byName.get('leave-conversation')?.turns ?? [];
    expect(turns.map((turn) => turn.tool_calls.map((call) => call.name))).toEqual([
      ['mcp__holodeck_tools__handbook_search'],
      [],
    ]);
    expect(turns[0]?.tool_results[0]?.result).toMatch(
      /^\[1\] source: leave-policy\.docx \| heading: Leave policy > Annual leave \|/,
    );
    for (const turn of turns)
      expect(rag(turn.metrics)).toEqual([expect.objectContaining({ passed: true, score: 1 })]);
  }, 180_000);
});

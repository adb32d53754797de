import type { AgentConfig, LoadedAgent } from '../../../../src/config/index.js';
import { combineVariantRuns } from '../../../../src/runner/matrix/combine-variant-runs.js';
import type { MatrixVariant } from '../../../../src/runner/matrix/matrix-variant.js';
import type { CaseReport, RunReport } from '../../../../src/runner/report/run-report.js';
import { attempt, bleu, runReport, testCase, usage } from '../report/report-builder.js';

/** A case with one attempt: passing or not, its cost, tokens and duration. */
export function outcome(
  name: string,
  passed: boolean,
  cost: number,
  durationMs: number,
  tokens = 100,
): CaseReport {
  return testCase(name, [
    attempt({
      metrics: [bleu(passed ? 0.9 : 0.2)],
      cost_usd: cost,
      duration_ms: durationMs,
      token_usage: usage(tokens, 10),
    }),
  ]);
}

export function agentOf(provider: 'anthropic' | 'openai', name: string): LoadedAgent {
  const config: AgentConfig = {
    name: 'support-agent',
    model: { provider, name },
    instructions: { inline: 'Help.' },
  } as AgentConfig;
  return {
    file: '/agents/support/agent.yaml',
    directory: '/agents/support',
    config,
    instructions: 'Help.',
    env: {},
    warnings: [],
  };
}

export function variant(name: string, provider: 'anthropic' | 'openai', model: string): MatrixVariant {
  return {
    name,
    overrides: { model: { provider, name: model } },
    agent: agentOf(provider, model),
    backend: provider === 'anthropic' ? 'claude' : 'ai-sdk',
  };
}

/** Claude passes capital (cheaper) and fails planet; GPT passes both; the tie row has equal cells. */
export function matrixRun(capitalName = 'capital'): RunReport {
  const claude = runReport([
    outcome(capitalName, true, 0.001, 2000),
    outcome('planet', false, 0.001, 1500),
    outcome('tie', true, 0.002, 1000),
  ]);
  const gpt = runReport(
    [
      outcome(capitalName, true, 0.003, 900),
      outcome('planet', true, 0.003, 800),
      outcome('tie', true, 0.002, 1000),
    ],
    {
      run_id: 'second-run',
    },
  );
  return combineVariantRuns(
    agentOf('anthropic', 'claude-sonnet-4-5'),
    [
      { variant: variant('claude', 'anthropic', 'claude-sonnet-4-5'), report: claude },
      { variant: variant('gpt', 'openai', 'gpt-4o'), report: gpt },
    ],
    {
      startedAt: new Date('2026-11-30T01:02:03.000Z'),
      finishedAt: new Date('2026-11-30T01:02:33.000Z'),
      interrupted: false,
    },
  );
}

import { modelPricing } from '../backends/pricing/model-pricing.js';
import type { FieldPath, LoadedAgent, TestCase } from '../config/index.js';
import type { ConfigIssue } from '../errors.js';
import type { CaseSource } from './prepare-suite.js';

type IssueAt = (source: CaseSource, field: FieldPath, message: string, hint?: string) => ConfigIssue;

/** Why the cost of a run is not known while it runs, for this agent; undefined when it is. */
function costUnknownInFlight(agent: LoadedAgent): string | undefined {
  const pricing = modelPricing(agent.config);
  if (pricing.kind === 'prices') return undefined;
  if (pricing.kind === 'unknown') return pricing.reason;
  return 'the Claude CLI reports what a run cost only when the run has ended';
}

/**
 * `limits.cost` stops an attempt once its cost so far passes the limit, so that cost must be
 * known during the run: from `pricing:` or the price table. Where it is not (the Claude CLI prices
 * its runs only in their result; a model without a price), the limit could never act: an issue
 * at each place that sets it (default_case, a case), checked on the cases as written.
 */
export function costLimitIssues(
  agent: LoadedAgent,
  cases: readonly { config: TestCase; source: CaseSource }[],
  issueAt: IssueAt,
): ConfigIssue[] {
  const places: { source: CaseSource; field: FieldPath }[] = [
    ...(agent.config.default_case?.limits?.cost !== undefined
      ? [
          {
            source: { file: agent.file, path: [], ...(agent.locate ? { locate: agent.locate } : {}) },
            field: ['default_case', 'limits', 'cost'],
          },
        ]
      : []),
    ...cases
      .filter(({ config }) => config.limits?.cost !== undefined)
      .map(({ source }) => ({ source, field: ['limits', 'cost'] })),
  ];
  if (!places.length) return [];
  const why = costUnknownInFlight(agent);
  if (why === undefined) return [];
  return places.map(({ source, field }) =>
    issueAt(
      source,
      field,
      `a cost limit needs each attempt's cost while it runs, which is unknown here (${why}), so it could never stop one`,
      'set pricing: in agent.yaml (input_per_million, output_per_million), or limit tokens instead (limits.tokens)',
    ),
  );
}

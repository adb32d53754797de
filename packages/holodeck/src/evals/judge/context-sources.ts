import { retrievedPassagesOf } from '../../tools/retrieval/retrieval-context.js';
import type { MetricInput } from '../metric.js';

/**
 * Where each passage of a run's retrieval context came from, by passage text: the search tool and
 * its citation (`handbook_search: source: a.md | heading: … | chunk: a.md#1`), for the judge to
 * see apart from the text it grades. Passages of a test case's own `context` have none.
 */
export function contextSourcesOf(input: MetricInput): Map<string, string> {
  const sources = new Map<string, string>();
  for (const passage of retrievedPassagesOf({
    tool_calls: input.toolCalls,
    tool_results: input.toolResults,
  })) {
    if (!sources.has(passage.text)) sources.set(passage.text, `${passage.tool}: ${passage.citation}`);
  }
  return sources;
}

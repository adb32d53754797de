import { searchCallsOf } from '../../tools/retrieval/retrieval-context.js';
import { isFormattedResults, NO_RESULTS } from '../../tools/retrieval/search/format-results.js';
import type { MetricInput } from '../metric.js';

/** The retrieval searches of a run that gave RAG metrics no passage. */
export interface EmptyRetrieval {
  /** Each search tool called (short name, `handbook_search`) and how many times, in call order. */
  calls: Map<string, number>;
  /** Searches that answered "No results found.". */
  empty: number;
  /** Why the others failed (their error output), in call order. */
  failures: string[];
}

/** What a retrieval tool's error output starts with (retrieval-search-tool.ts). */
const SEARCH_ERROR = /^(Search failed: |Invalid arguments for ")/;

/**
 * The agent's retrieval searches in this run, when it made some and none gave a passage: calls
 * of a `<name>_search` tool (MCP-prefixed spellings too) that answered "No results found." or
 * with a retrieval tool's error. Undefined when it made none, or when one returned passages.
 * The same calls (`searchCallsOf`) retrievalContextOf() reads passages from.
 */
export function emptyRetrievalOf(
  input: Pick<MetricInput, 'toolCalls' | 'toolResults'>,
): EmptyRetrieval | undefined {
  const found: EmptyRetrieval = { calls: new Map(), empty: 0, failures: [] };
  for (const { tool, result } of searchCallsOf(input.toolCalls, input.toolResults)) {
    const text = result.result.trim();
    if (result.is_error) {
      if (!SEARCH_ERROR.test(text)) continue;
      found.failures.push(text.replace(/^Search failed: /, ''));
    } else if (text === NO_RESULTS) {
      found.empty += 1;
    } else if (isFormattedResults(text)) {
      // It returned passages: the context is missing for another reason (the case's own `context: []`).
      return undefined;
    } else {
      continue;
    }
    found.calls.set(tool, (found.calls.get(tool) ?? 0) + 1);
  }
  return found.calls.size > 0 ? found : undefined;
}

/**
 * What a RAG metric says of such a run: `the agent's searches (handbook_search ×2) returned no
 * passages; nothing to judge against`, with the failures, if any, in parentheses.
 */
export function describeEmptyRetrieval(retrieval: EmptyRetrieval): string {
  const total = retrieval.empty + retrieval.failures.length;
  const names = [...retrieval.calls]
    .map(([name, count]) => (count > 1 ? `${name} ×${count}` : name))
    .join(', ');
  const searches = `the agent's ${total === 1 ? 'search' : 'searches'} (${names})`;
  const [firstFailure] = retrieval.failures;
  if (firstFailure === undefined) return `${searches} returned no passages; nothing to judge against`;
  if (retrieval.empty === 0) {
    const failed = total === 1 ? 'failed' : `all failed (the first: ${firstFailure})`;
    return total === 1
      ? `${searches} ${failed}: ${firstFailure}; nothing to judge against`
      : `${searches} ${failed}; nothing to judge against`;
  }
  const failed = retrieval.failures.length;
  return `${searches} returned no passages (${failed} of them failed: ${firstFailure}); nothing to judge against`;
}

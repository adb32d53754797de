import { NO_RESULTS } from './search/format-results.js';

/** The parts of a run the retrieval context is read from (ExecutionResult's tool fields). */
export interface RetrievalRunRecord {
  tool_calls: readonly { name: string; call_id: string }[];
  tool_results: readonly { call_id: string; result: string; is_error: boolean }[];
}

/**
 * The passages an agent's retrieval tools returned in a run, for RAG metrics of a test case that
 * gives no `context`: each result block of each successful `<name>_search` call (as the model
 * read it, citation line included), in call order. Undefined when no retrieval tool returned any.
 * `searchNames` are the tools' short names (`handbook_search`); MCP-prefixed spellings
 * (`mcp__holodeck_tools__handbook_search`) match too. Without them, any `*_search` call whose
 * result is in the retrieval format (format-results.ts) counts.
 */
export function retrievalContextOf(
  run: RetrievalRunRecord,
  searchNames?: ReadonlySet<string>,
): string[] | undefined {
  const results = new Map(run.tool_results.map((result) => [result.call_id, result]));
  const passages: string[] = [];
  for (const call of run.tool_calls) {
    const short = call.name.replace(/^mcp__.+?__/, '');
    if (searchNames ? !searchNames.has(short) && !searchNames.has(call.name) : !short.endsWith('_search'))
      continue;
    const result = results.get(call.call_id);
    if (!result || result.is_error || result.result.trim() === NO_RESULTS) continue;
    // Without names, only results in the retrieval tools' own format count.
    if (!searchNames && !result.result.startsWith('[1] source: ')) continue;
    passages.push(
      ...result.result
        .split(/\n\n(?=\[\d+\] source: )/)
        .map((block) => block.trim())
        .filter(Boolean),
    );
  }
  return passages.length ? passages : undefined;
}

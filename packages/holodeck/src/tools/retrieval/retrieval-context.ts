import { isFormattedResults, NO_RESULTS } from './search/format-results.js';

/** The parts of a run the retrieval context is read from (ExecutionResult's tool fields). */
export interface RetrievalRunRecord {
  tool_calls: readonly { name: string; call_id: string }[];
  tool_results: readonly { call_id: string; result: string; is_error: boolean }[];
}

/** The chunk id a result block cites (`… | chunk: <id> | score: …`), to tell repeats apart. */
function citedChunk(block: string): string {
  const citation = block.split('\n', 1)[0] ?? '';
  return /\| chunk: (.+?) \| score: /.exec(citation)?.[1] ?? block;
}

/**
 * `passages` added to `known`, except the chunks `known` already holds (the same chunk found by
 * two searches, or in two turns, is one passage: the first time it was found). Returns a new list.
 */
export function mergeRetrievalContext(known: readonly string[], passages: readonly string[]): string[] {
  const merged = [...known];
  const seen = new Set(known.map(citedChunk));
  for (const passage of passages) {
    const id = citedChunk(passage);
    if (seen.has(id)) continue;
    seen.add(id);
    merged.push(passage);
  }
  return merged;
}

/** A tool call and its result, as a run records them. */
type RecordedCall = RetrievalRunRecord['tool_calls'][number];
type RecordedResult = RetrievalRunRecord['tool_results'][number];

/** One retrieval search of a run: the tool's short name (`handbook_search`) and what it answered. */
export interface SearchCall {
  tool: string;
  result: RecordedResult;
}

/**
 * The retrieval searches of a run that have a result, in call order: calls of the tools named
 * `searchNames` (short names; MCP-prefixed spellings such as `mcp__holodeck_tools__handbook_search`
 * match too), or without names of any `*_search` tool.
 */
export function searchCallsOf(
  calls: readonly RecordedCall[],
  results: readonly RecordedResult[],
  searchNames?: ReadonlySet<string>,
): SearchCall[] {
  const byId = new Map(results.map((result) => [result.call_id, result]));
  return calls.flatMap((call) => {
    const tool = call.name.replace(/^mcp__.+?__/, '');
    if (searchNames ? !searchNames.has(tool) && !searchNames.has(call.name) : !tool.endsWith('_search'))
      return [];
    const result = byId.get(call.call_id);
    return result ? [{ tool, result }] : [];
  });
}

/**
 * The passages an agent's retrieval tools returned in a run, for RAG metrics of a test case that
 * gives no `context`: each result block of each successful search (`searchCallsOf`; as the model
 * read it, citation line included), in call order, a chunk found twice kept once. Undefined when
 * no retrieval tool returned any. Without `searchNames`, only results in the retrieval format
 * (format-results.ts) count.
 */
export function retrievalContextOf(
  run: RetrievalRunRecord,
  searchNames?: ReadonlySet<string>,
): string[] | undefined {
  let passages: string[] = [];
  for (const { result } of searchCallsOf(run.tool_calls, run.tool_results, searchNames)) {
    if (result.is_error || result.result.trim() === NO_RESULTS) continue;
    if (!searchNames && !isFormattedResults(result.result)) continue;
    passages = mergeRetrievalContext(
      passages,
      result.result
        .split(/\n\n(?=\[\d+\] source: )/)
        .map((block) => block.trim())
        .filter(Boolean),
    );
  }
  return passages.length ? passages : undefined;
}

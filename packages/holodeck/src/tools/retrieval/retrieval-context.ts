import { NO_RESULTS } from './search/format-results.js';

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

/**
 * The passages an agent's retrieval tools returned in a run, for RAG metrics of a test case that
 * gives no `context`: each result block of each successful `<name>_search` call (as the model
 * read it, citation line included), in call order, a chunk found twice kept once. Undefined when
 * no retrieval tool returned any. `searchNames` are the tools' short names (`handbook_search`);
 * MCP-prefixed spellings (`mcp__holodeck_tools__handbook_search`) match too. Without them, any
 * `*_search` call whose result is in the retrieval format (format-results.ts) counts.
 */
export function retrievalContextOf(
  run: RetrievalRunRecord,
  searchNames?: ReadonlySet<string>,
): string[] | undefined {
  const results = new Map(run.tool_results.map((result) => [result.call_id, result]));
  let passages: string[] = [];
  for (const call of run.tool_calls) {
    const short = call.name.replace(/^mcp__.+?__/, '');
    if (searchNames ? !searchNames.has(short) && !searchNames.has(call.name) : !short.endsWith('_search'))
      continue;
    const result = results.get(call.call_id);
    if (!result || result.is_error || result.result.trim() === NO_RESULTS) continue;
    // Without names, only results in the retrieval tools' own format count.
    if (!searchNames && !result.result.startsWith('[1] source: ')) continue;
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

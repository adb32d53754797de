import type { ToolKind } from '../../execution-result.js';
import { shortToolName } from '../../tool-name.js';
import { isFormattedResults, NO_RESULTS } from './search/format-results.js';

/** The parts of a run the retrieval context is read from (ExecutionResult's tool fields). */
export interface RetrievalRunRecord {
  tool_calls: readonly { name: string; call_id: string; kind?: ToolKind }[];
  tool_results: readonly { call_id: string; result: string; is_error: boolean }[];
}

/** One passage a retrieval tool returned in a run: its text, and apart from it where it came from. */
export interface RetrievedPassage {
  /** The search tool's short name (`handbook_search`). */
  tool: string;
  /** The chunk id its citation names (the whole block when it names none). */
  chunkId: string;
  /** The citation line without its position and score: `source: … | heading: … | chunk: …`. */
  citation: string;
  /** The chunk's text, as the model read it below the citation line. */
  text: string;
}

/** A result block (`[n] source: … | chunk: <id> | score: …` then the text) as a passage of `tool`. */
function passageOf(tool: string, block: string): RetrievedPassage {
  const newline = block.indexOf('\n');
  const line = newline < 0 ? block : block.slice(0, newline);
  const text = newline < 0 ? '' : block.slice(newline + 1);
  const chunkId = /\| chunk: (.+?) \| score: /.exec(line)?.[1] ?? block;
  const citation = line.replace(/^\[\d+\] /, '').replace(/ \| score: [^|]*$/, '');
  return { tool, chunkId, citation, text };
}

/**
 * `passages` added to `known`, except the passages `known` already holds (the same text found by
 * two searches, or in two turns, is one passage for a judge: the first time it was found).
 * Returns a new list.
 */
export function mergeRetrievalContext(known: readonly string[], passages: readonly string[]): string[] {
  const merged = [...known];
  const seen = new Set(known);
  for (const passage of passages) {
    if (seen.has(passage)) continue;
    seen.add(passage);
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
    const tool = shortToolName(call.name);
    // A call that carries its kind says whether it was a retrieval search; older runs are read by name.
    const isSearch =
      call.kind !== undefined && !searchNames ? call.kind === 'retrieval' : tool.endsWith('_search');
    if (searchNames ? !searchNames.has(tool) && !searchNames.has(call.name) : !isSearch) return [];
    const result = byId.get(call.call_id);
    return result ? [{ tool, result }] : [];
  });
}

/**
 * The passages an agent's retrieval tools returned in a run: each result block of each successful
 * search (`searchCallsOf`), in call order, a chunk found twice by one tool kept once (keyed by tool
 * and chunk id: two tools' chunks may share an id). Without `searchNames`, only results in the
 * retrieval format (format-results.ts) count.
 */
export function retrievedPassagesOf(
  run: RetrievalRunRecord,
  searchNames?: ReadonlySet<string>,
): RetrievedPassage[] {
  const passages: RetrievedPassage[] = [];
  const seen = new Set<string>();
  for (const { tool, result } of searchCallsOf(run.tool_calls, run.tool_results, searchNames)) {
    if (result.is_error || result.result.trim() === NO_RESULTS) continue;
    if (!searchNames && !isFormattedResults(result.result)) continue;
    for (const block of result.result.split(/\n\n(?=\[\d+\] source: )/)) {
      if (!block.trim()) continue;
      const passage = passageOf(tool, block.trim());
      const key = `${passage.tool}\u0000${passage.chunkId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      passages.push(passage);
    }
  }
  return passages;
}

/**
 * The retrieval context of a run for RAG metrics of a test case that gives no `context`: the
 * text of each passage (retrievedPassagesOf), without its citation line: a judge grades what the
 * passages say, and gets their citations apart (judge-prompt.ts's contextBlock). Undefined when
 * no retrieval tool returned any.
 */
export function retrievalContextOf(
  run: RetrievalRunRecord,
  searchNames?: ReadonlySet<string>,
): string[] | undefined {
  const texts = mergeRetrievalContext(
    [],
    retrievedPassagesOf(run, searchNames).map((passage) => passage.text),
  );
  return texts.length ? texts : undefined;
}

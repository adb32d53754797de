import type { LoadedAgent } from '../../config/index.js';
import type { LoadedTools } from '../holodeck-tool.js';
import type { LoadRetrievalOptions } from './load-retrieval-tools.js';

/**
 * `loadRetrievalTools` behind an import on first use: the tokenizer's ranks, sqlite-vec and the
 * parsers cost start-up time that agents without retrieval tools should not pay.
 */
export async function loadRetrievalTools(
  agent: LoadedAgent,
  options: LoadRetrievalOptions = {},
): Promise<LoadedTools> {
  return (await import('./load-retrieval-tools.js')).loadRetrievalTools(agent, options);
}

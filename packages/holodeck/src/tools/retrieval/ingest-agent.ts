import type { LoadedAgent } from '../../config/index.js';
import type { IngestReport } from './ingest/ingest-collection.js';
import { type OpenRetrievalOptions, openRetrievalIndexes } from './open-retrieval-index.js';
import { retrievalToolEntries } from './retrieval-tool-entries.js';

/**
 * `holodeck ingest`: brings every retrieval tool's index of the agent up to date (or rebuilds it
 * with `force`) and closes the stores. One report per tool, in agent.yaml order.
 */
export async function ingestAgent(
  agent: LoadedAgent,
  options: OpenRetrievalOptions = {},
): Promise<IngestReport[]> {
  const { tools, stores } = await openRetrievalIndexes(
    agent,
    retrievalToolEntries(agent.config.tools),
    options,
  );
  await Promise.all(stores.map((store) => store.close()));
  return tools.map((tool) => tool.report);
}

import type { HierarchicalDocumentToolConfig, VectorstoreToolConfig } from '../../config/index.js';

/** Either retrieval tool type of agent.yaml. */
export type RetrievalToolConfig = VectorstoreToolConfig | HierarchicalDocumentToolConfig;

/** A retrieval tool of agent.yaml and its position in `tools`, for messages. */
export interface RetrievalToolEntry {
  index: number;
  config: RetrievalToolConfig;
}

/** The model sees a retrieval tool as `<name>_search` (inside holodeck_tools on Claude). */
export function searchToolName(toolName: string): string {
  return `${toolName}_search`;
}

/** The retrieval tools of a tools list, with their positions. */
export function retrievalToolEntries(tools: readonly { type: string }[] | undefined): RetrievalToolEntry[] {
  return (tools ?? []).flatMap((tool, index) =>
    tool.type === 'vectorstore' || tool.type === 'hierarchical_document'
      ? [{ index, config: tool as RetrievalToolConfig }]
      : [],
  );
}

/** A piece of a source that is embedded, indexed and returned by a search. */
export interface Chunk {
  /** `<source>#<n>` (documents) or `<source>#<record id>` (records); unique in a tool's index. */
  id: string;
  /** The source file, relative to the tool's source folder (or its file name). */
  source: string;
  /** The document's title (first heading or file name). */
  title: string;
  /** Heading chain of the section the chunk is in (hierarchical_document), e.g. ["Policies", "Refunds"]. */
  headingPath: string[];
  /** Stable id of that section: its heading path as a slug, e.g. `policies/refunds`. */
  sectionId?: string;
  /** 1-based PDF page. */
  page?: number;
  /** The chunk's own text, as the model reads it. */
  text: string;
  /** Record fields shown with the result (`meta_fields`). */
  metadata: Record<string, string>;
}

/** The text that is embedded and keyword-indexed for a chunk: its heading path gives it context. */
export function embeddingText(chunk: Chunk): string {
  return chunk.headingPath.length ? `${chunk.headingPath.join(' > ')}\n\n${chunk.text}` : chunk.text;
}

/** A page of a parsed document: PDFs have page numbers, other formats one page without. */
export interface DocumentPage {
  /** 1-based page number (PDF only). */
  page?: number;
  text: string;
}

/** One record of a CSV, JSON or JSONL source. */
export interface SourceRecord {
  /** The `id_field` value, or the 1-based record number. */
  id: string;
  /** The text that is embedded: the `vector_field` values (or every field). */
  text: string;
  /** The `meta_fields` values, shown with each result. */
  metadata: Record<string, string>;
}

/** What a parser made of one source file. */
export type ParsedSource =
  | {
      kind: 'document';
      /** The first heading, or the file name without its extension. */
      title: string;
      /** markdown (markdown, HTML, DOCX) has headings to follow; text (plain text, PDF) has none. */
      format: 'markdown' | 'text';
      pages: DocumentPage[];
    }
  | { kind: 'records'; records: SourceRecord[] };

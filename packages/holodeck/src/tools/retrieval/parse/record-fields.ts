/** Which fields of a CSV/JSON/JSONL record are embedded, identify it and are shown with it. */
export interface RecordFields {
  /** `vector_field`: embedded fields; undefined embeds every field as `name: value` lines. */
  vectorFields?: readonly string[];
  /** `id_field`: the chunk id; undefined uses the record number. */
  idField?: string;
  /** `meta_fields`: shown with each result. */
  metaFields: readonly string[];
  /** `record_path`: dotted path to the array of records in a JSON document. */
  recordPath?: string;
}

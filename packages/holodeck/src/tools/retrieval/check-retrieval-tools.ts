import path from 'node:path';
import type { FieldIssue } from 'yaml-diagnostics';
import type { AgentConfig } from '../../config/index.js';
import { listSourceFiles } from './ingest/list-source-files.js';
import { isRecordFile, RECORD_EXTENSIONS } from './parse/parse-source-file.js';
import { retrievalToolEntries } from './retrieval-tool-entries.js';
import { describePostgresTarget } from './store/describe-postgres-target.js';

/** A retrieval tool problem found without network, with a stable code. */
export interface RetrievalIssue extends FieldIssue {
  code: string;
}

const RECORD_ONLY = ['vector_field', 'id_field', 'meta_fields', 'record_path'] as const;

/**
 * What `validate` can tell of the retrieval tools without network (paths are absolute already):
 * the source exists and holds files a parser reads, record fields have records to apply to, a
 * PostgreSQL connection string parses and carries credentials. Both backends' startup rules
 * call this.
 */
export async function checkRetrievalTools(config: AgentConfig): Promise<RetrievalIssue[]> {
  const issues: RetrievalIssue[] = [];
  for (const { index, config: tool } of retrievalToolEntries(config.tools)) {
    const at = (field: string) => ['tools', index, field];
    let listing: Awaited<ReturnType<typeof listSourceFiles>> | undefined;
    try {
      listing = await listSourceFiles(tool.source, tool.include, tool.exclude);
    } catch (error) {
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
      issues.push({
        code: missing ? 'retrieval-source-missing' : 'retrieval-source-unreadable',
        path: at('source'),
        message: missing
          ? `${tool.source} does not exist`
          : `${tool.source} cannot be read: ${error instanceof Error ? error.message : error}`,
        hint: 'point source at a file or folder, relative to agent.yaml',
      });
    }
    if (listing && listing.files.length === 0) {
      const filtered = listing.isFolder && (tool.include?.length || tool.exclude?.length);
      const skipped = listing.unsupported.length
        ? ` (unsupported: ${listing.unsupported.slice(0, 5).join(', ')})`
        : '';
      issues.push({
        code: 'retrieval-source-empty',
        path: at('source'),
        message: listing.isFolder
          ? `${tool.source} has no file to index${filtered ? ' that include/exclude keep' : ''}${skipped}`
          : `${path.basename(tool.source)} is not a supported file type`,
        hint: 'supported: .md, .txt, .html, .pdf, .docx, and records in .csv, .json, .jsonl',
      });
    }
    if (
      tool.type === 'vectorstore' &&
      listing &&
      listing.files.length &&
      !listing.files.some((file) => isRecordFile(file.absolute))
    ) {
      for (const field of RECORD_ONLY) {
        if (tool[field] === undefined) continue;
        issues.push({
          code: 'retrieval-record-field-unused',
          path: at(field),
          anchor: 'key',
          message: `"${field}" applies to records (${RECORD_EXTENSIONS.join(', ')}), and ${tool.source} has none`,
          hint: 'remove it, or point source at a CSV, JSON or JSONL file',
        });
      }
    }
    if (tool.database?.provider === 'postgres') {
      const target = describePostgresTarget(tool.database.connection_string);
      if (!target.ok) {
        issues.push({
          code: 'retrieval-database-invalid',
          path: ['tools', index, 'database', 'connection_string'],
          message: target.problem,
          // biome-ignore lint/suspicious/noTemplateCurlyInString: shows agent.yaml's ${VAR} syntax
          hint: 'use postgres://user:password@host:5432/database, e.g. postgres://holodeck:${PGPASSWORD}@localhost:5432/holodeck',
        });
      }
    }
  }
  return issues;
}

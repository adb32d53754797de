import { isRecord } from 'yaml-diagnostics';
import type { FieldWarning } from './field-warning.js';

/** `postgres://user:secret@host` with the password written out, not a `${VAR}`. */
function hasLiteralPassword(url: string): boolean {
  const match = /^postgres(?:ql)?:\/\/[^:@/\s]*:([^@/\s]*)@/i.exec(url.trim());
  const password = match?.[1];
  return password !== undefined && password !== '' && !password.includes('${');
}

/**
 * Connection strings of agent.yaml (as written, before `${VAR}` substitution) that hold a
 * password: agent.yaml is committed, so the README says to use a variable. A warning, not an
 * error: a local throwaway database is a fair use.
 */
export function findLiteralPasswords(raw: unknown): FieldWarning[] {
  if (!isRecord(raw) || !Array.isArray(raw.tools)) return [];
  const warnings: FieldWarning[] = [];
  for (const [index, tool] of raw.tools.entries()) {
    const database = isRecord(tool) ? tool.database : undefined;
    const url = isRecord(database) ? database.connection_string : undefined;
    if (typeof url === 'string' && hasLiteralPassword(url))
      warnings.push({
        code: 'literal-password',
        path: ['tools', index, 'database', 'connection_string'],
        message: `tools[${index}].database.connection_string holds a password written in agent.yaml; use \${VAR} (e.g. postgres://user:\${PGPASSWORD}@host/db) and set it in .env or the environment`,
      });
  }
  return warnings;
}

import type { PGlite } from '@electric-sql/pglite';

/** Kysely's PostgresDialect over PGlite: a pool whose every client is the one PGlite session. */
export function pglitePool(database: PGlite) {
  const client = {
    async query(text: string, parameters: unknown[]) {
      const result = await database.query(text, parameters);
      return { rows: result.rows, rowCount: result.affectedRows ?? 0, command: 'SELECT' };
    },
    release() {},
  };
  return { connect: async () => client, end: async () => {} };
}

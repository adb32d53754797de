/** A PostgreSQL connection string checked without connecting: where it points, or what is wrong. */
export type PostgresTarget = { ok: true; display: string } | { ok: false; problem: string };

/**
 * Parses `postgres://user:password@host:port/database`: it must be a postgres(ql) URL naming a
 * user and a password (an index server is never reached without credentials). `display` is the
 * target without the password, for messages.
 */
export function describePostgresTarget(connectionString: string): PostgresTarget {
  let url: URL;
  try {
    url = new URL(connectionString);
  } catch {
    return { ok: false, problem: 'database.connection_string is not a URL' };
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    return {
      ok: false,
      problem: `database.connection_string must start with postgres://, not ${url.protocol}//`,
    };
  }
  if (!url.username || !url.password) {
    return {
      ok: false,
      problem: `database.connection_string has no ${url.username ? 'password' : 'user and password'}`,
    };
  }
  const database = url.pathname.replace(/^\//, '') || url.username;
  return { ok: true, display: `${url.hostname}:${url.port || '5432'}/${decodeURIComponent(database)}` };
}

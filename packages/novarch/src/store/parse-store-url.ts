import os from 'node:os';
import path from 'node:path';
import { NovarchError } from '../errors.js';

/** Where a store is: a SQLite file, or a PostgreSQL database. */
export type StoreUrl =
  | {
      kind: 'sqlite';
      /** Absolute path of the SQLite file. */
      path: string;
    }
  | {
      kind: 'postgres';
      /** The connection string as given (it may carry a password: never print it). */
      url: string;
      /** The connection string with its password replaced by `***`, for messages. */
      redacted: string;
    };

/**
 * A store URL that cannot be used. The message names the URL with its password replaced by
 * `***` and says what to write instead.
 */
export class StoreUrlError extends NovarchError {
  override name = 'StoreUrlError';
}

/** Where relative `sqlite:` paths and `~` are resolved (default: the process's). */
export interface StoreUrlBase {
  cwd?: string;
  homeDirectory?: string;
}

const EXPECTED =
  'expected sqlite:PATH (e.g. sqlite:/var/lib/novarch/novarch.db) or postgres://USER:PASSWORD@HOST:PORT/DATABASE';

/**
 * The query parameters of a PostgreSQL URL that `pg` honours for a Novarch store. Anything else is
 * refused rather than silently ignored.
 */
const POSTGRES_PARAMETERS: Readonly<Record<string, readonly string[] | undefined>> = {
  application_name: undefined,
  connect_timeout: undefined,
  options: undefined,
  sslmode: ['disable', 'prefer', 'require', 'verify-ca', 'verify-full', 'no-verify'],
  sslrootcert: undefined,
  sslcert: undefined,
  sslkey: undefined,
};

/**
 * A store URL with every password replaced by `***`: the `user:password@` part of the authority
 * and a `password=` query parameter. Works on text that is not a valid URL too (a password with
 * a raw `@` or `/`), since it is what error messages show.
 */
export function redactStoreUrl(text: string): string {
  let redacted = text;
  const authority = redacted.indexOf('://');
  if (authority !== -1) {
    const start = authority + 3;
    const at = redacted.lastIndexOf('@');
    const colon = redacted.indexOf(':', start);
    if (at > start && colon !== -1 && colon < at)
      redacted = `${redacted.slice(0, colon)}:***${redacted.slice(at)}`;
  }
  return redacted.replace(/([?&]password=)[^&#]*/gi, '$1***');
}

/**
 * Parses a store URL: `sqlite:PATH` (relative to `base.cwd`, `~` the home folder; `sqlite:///abs`
 * also works) or `postgres://…` / `postgresql://…` (a host and a database are required; query
 * parameters limited to what `pg` honours). Throws a `StoreUrlError` whose message never contains
 * the password.
 */
export function parseStoreUrl(text: string, base: StoreUrlBase = {}): StoreUrl {
  const value = text.trim();
  if (value === '') throw new StoreUrlError(`The store URL is empty: ${EXPECTED}.`);
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(value)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    throw new StoreUrlError(
      `${JSON.stringify(redactStoreUrl(value))} is not a store URL: ${EXPECTED}. For a file, write sqlite:${value}.`,
    );
  }
  if (scheme === 'sqlite') return parseSqliteUrl(value, base);
  if (scheme === 'postgres' || scheme === 'postgresql') return parsePostgresUrl(value);
  throw new StoreUrlError(
    `Unknown store URL scheme "${scheme}:" in ${redactStoreUrl(value)}: ${EXPECTED} (postgresql:// works too).`,
  );
}

function parseSqliteUrl(value: string, base: StoreUrlBase): StoreUrl {
  let file = value.slice('sqlite:'.length);
  if (file.startsWith('//')) {
    // The URL form: `sqlite:///abs/path` has an empty host; a named host cannot be a local file.
    const rest = file.slice(2);
    if (!rest.startsWith('/')) {
      throw new StoreUrlError(
        `${value} names a host ("${rest.split('/')[0]}"), but a SQLite store is a local file: write sqlite:/PATH or sqlite:///PATH.`,
      );
    }
    file = rest;
  }
  if (file.trim() === '') {
    throw new StoreUrlError(
      'sqlite: needs a file path after it, e.g. sqlite:/var/lib/novarch/novarch.db or sqlite:./novarch.db.',
    );
  }
  const home = base.homeDirectory ?? os.homedir();
  const expanded = file === '~' ? home : file.startsWith('~/') ? path.join(home, file.slice(2)) : file;
  return { kind: 'sqlite', path: path.resolve(base.cwd ?? process.cwd(), expanded) };
}

function parsePostgresUrl(value: string): StoreUrl {
  const redacted = redactStoreUrl(value);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new StoreUrlError(
      `${redacted} is not a valid URL: expected postgres://USER:PASSWORD@HOST:PORT/DATABASE (percent-encode special characters of the user and password, e.g. @ as %40).`,
    );
  }
  if (url.hostname === '') {
    throw new StoreUrlError(
      `${redacted} names no host: expected postgres://USER:PASSWORD@HOST:PORT/DATABASE.`,
    );
  }
  const database = url.pathname.replace(/^\//, '');
  if (database === '') {
    throw new StoreUrlError(
      `${redacted} names no database: add it after the host, e.g. postgres://USER:PASSWORD@${url.host}/novarch.`,
    );
  }
  if (database.includes('/')) {
    throw new StoreUrlError(
      `${redacted} has a path of several parts ("/${database}"): the path is the database name alone.`,
    );
  }
  const supported = Object.keys(POSTGRES_PARAMETERS).join(', ');
  for (const [name, parameter] of url.searchParams) {
    if (name === 'password') {
      throw new StoreUrlError(
        `${redacted}: put the password in the URL's user part (postgres://USER:PASSWORD@HOST/DATABASE), not in a password= parameter.`,
      );
    }
    if (!Object.hasOwn(POSTGRES_PARAMETERS, name)) {
      throw new StoreUrlError(`${redacted}: unsupported parameter "${name}"; supported: ${supported}.`);
    }
    const allowed = POSTGRES_PARAMETERS[name];
    if (allowed !== undefined && !allowed.includes(parameter)) {
      throw new StoreUrlError(
        `${redacted}: ${name}=${parameter} is not a valid value; expected one of ${allowed.join(', ')}.`,
      );
    }
  }
  return { kind: 'postgres', url: value, redacted };
}

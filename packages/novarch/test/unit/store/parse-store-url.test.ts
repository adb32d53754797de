import { describe, expect, it } from 'vitest';
import { parseStoreUrl, redactStoreUrl, StoreUrlError } from '../../../src/index.js';

const base = { cwd: '/srv/agent', homeDirectory: '/home/ana' };

describe('parseStoreUrl', () => {
  it('reads sqlite:PATH relative to the working folder, ~ as home, and the sqlite:/// form', () => {
    expect(parseStoreUrl('sqlite:novarch.db', base)).toEqual({
      kind: 'sqlite',
      path: '/srv/agent/novarch.db',
    });
    expect(parseStoreUrl('sqlite:./data/n.db', base)).toEqual({
      kind: 'sqlite',
      path: '/srv/agent/data/n.db',
    });
    expect(parseStoreUrl('sqlite:/var/lib/novarch/n.db', base)).toEqual({
      kind: 'sqlite',
      path: '/var/lib/novarch/n.db',
    });
    expect(parseStoreUrl('sqlite:///var/lib/n.db', base)).toEqual({ kind: 'sqlite', path: '/var/lib/n.db' });
    expect(parseStoreUrl('sqlite:~/.novarch/n.db', base)).toEqual({
      kind: 'sqlite',
      path: '/home/ana/.novarch/n.db',
    });
    expect(parseStoreUrl('  SQLite:n.db ', base)).toEqual({ kind: 'sqlite', path: '/srv/agent/n.db' });
  });

  it('reads postgres:// and postgresql:// URLs, keeping the password only where it is needed', () => {
    expect(parseStoreUrl('postgres://novarch:pa55word@db.internal:5432/novarch?sslmode=require')).toEqual({
      kind: 'postgres',
      url: 'postgres://novarch:pa55word@db.internal:5432/novarch?sslmode=require',
      redacted: 'postgres://novarch:***@db.internal:5432/novarch?sslmode=require',
    });
    expect(parseStoreUrl('postgresql://db/novarch')).toEqual({
      kind: 'postgres',
      url: 'postgresql://db/novarch',
      redacted: 'postgresql://db/novarch',
    });
  });

  const refusals: [string, string][] = [
    [
      '',
      'The store URL is empty: expected sqlite:PATH (e.g. sqlite:/var/lib/novarch/novarch.db) or postgres://USER:PASSWORD@HOST:PORT/DATABASE.',
    ],
    [
      'novarch.db',
      '"novarch.db" is not a store URL: expected sqlite:PATH (e.g. sqlite:/var/lib/novarch/novarch.db) or postgres://USER:PASSWORD@HOST:PORT/DATABASE. For a file, write sqlite:novarch.db.',
    ],
    [
      'mysql://root:hunter2-secret@db/novarch',
      'Unknown store URL scheme "mysql:" in mysql://root:***@db/novarch: expected sqlite:PATH (e.g. sqlite:/var/lib/novarch/novarch.db) or postgres://USER:PASSWORD@HOST:PORT/DATABASE (postgresql:// works too).',
    ],
    [
      'sqlite:',
      'sqlite: needs a file path after it, e.g. sqlite:/var/lib/novarch/novarch.db or sqlite:./novarch.db.',
    ],
    [
      'sqlite://fileserver/n.db',
      'sqlite://fileserver/n.db names a host ("fileserver"), but a SQLite store is a local file: write sqlite:/PATH or sqlite:///PATH.',
    ],
    [
      'postgres://u:hunter2-secret@db:99999/novarch',
      'postgres://u:***@db:99999/novarch is not a valid URL: expected postgres://USER:PASSWORD@HOST:PORT/DATABASE (percent-encode special characters of the user and password, e.g. @ as %40).',
    ],
    [
      'postgres://u:hunter2/secret@db/novarch',
      'postgres://u:***@db/novarch is not a valid URL: expected postgres://USER:PASSWORD@HOST:PORT/DATABASE (percent-encode special characters of the user and password, e.g. @ as %40).',
    ],
    [
      'postgres:///novarch',
      'postgres:///novarch names no host: expected postgres://USER:PASSWORD@HOST:PORT/DATABASE.',
    ],
    [
      'postgres://u:hunter2-secret@db:5432',
      'postgres://u:***@db:5432 names no database: add it after the host, e.g. postgres://USER:PASSWORD@db:5432/novarch.',
    ],
    [
      'postgres://db/a/b',
      'postgres://db/a/b has a path of several parts ("/a/b"): the path is the database name alone.',
    ],
    [
      'postgres://u:hunter2-secret@db/novarch?max=3',
      'postgres://u:***@db/novarch?max=3: unsupported parameter "max"; supported: application_name, connect_timeout, options, sslmode, sslrootcert, sslcert, sslkey.',
    ],
    [
      'postgres://db/novarch?sslmode=always',
      'postgres://db/novarch?sslmode=always: sslmode=always is not a valid value; expected one of disable, prefer, require, verify-ca, verify-full, no-verify.',
    ],
    [
      'postgres://u@db/novarch?password=hunter2-secret',
      "postgres://u@db/novarch?password=***: put the password in the URL's user part (postgres://USER:PASSWORD@HOST/DATABASE), not in a password= parameter.",
    ],
  ];
  for (const [input, message] of refusals) {
    it(`refuses ${JSON.stringify(input)} with what to write instead, never quoting a password`, () => {
      const error = (() => {
        try {
          parseStoreUrl(input, base);
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(StoreUrlError);
      expect(error instanceof Error ? error.message : '').toBe(message);
      expect(String(error)).not.toContain('hunter2');
    });
  }

  it('redactStoreUrl hides the user-part password and a password= parameter', () => {
    expect(redactStoreUrl('postgres://u:p%40ss@h/db')).toBe('postgres://u:***@h/db');
    expect(redactStoreUrl('postgres://u@h/db')).toBe('postgres://u@h/db');
    expect(redactStoreUrl('postgres://h/db?sslmode=require&password=x&a=1')).toBe(
      'postgres://h/db?sslmode=require&password=***&a=1',
    );
  });
});

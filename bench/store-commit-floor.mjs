// @ts-check
// The floor a passed write's latency is judged against (issue 24: paced write p99 ≤ 2× the disk's
// commit time): the store's own durable commit of one small row, measured on the same database or
// folder the bench's server uses. Shared by novarch-server.mjs and novarch-servers.mjs.
import pg from 'pg';
import { measureDiskCommits } from './gate-overhead/disk-commit.mjs';
import { quantile } from './gate-overhead/measure.mjs';

/**
 * `count` autocommit inserts of one 200-byte row on PostgreSQL at `url` (the server's defaults:
 * each commit waits for its WAL flush), in a table of its own, dropped afterwards.
 * @param {string} url
 */
async function postgresCommits(url, count) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      'CREATE TABLE IF NOT EXISTS bench_commit_probe (id serial PRIMARY KEY, value text NOT NULL)',
    );
    const row = 'x'.repeat(200);
    const times = [];
    for (let index = 0; index < count; index++) {
      const start = process.hrtime.bigint();
      await client.query('INSERT INTO bench_commit_probe (value) VALUES ($1)', [row]);
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    await client.query('DROP TABLE bench_commit_probe');
    return times;
  } finally {
    await client.end();
  }
}

/**
 * p50 and p99 of the store's durable commit: PostgreSQL at `url`, or SQLite (WAL, synchronous FULL)
 * in `directory`.
 * @param {{ store: 'postgres' | 'sqlite', url?: string, directory: string, count?: number }} where
 */
export async function storeCommitFloor({ store, url, directory, count = 200 }) {
  const times =
    store === 'postgres' && url !== undefined
      ? await postgresCommits(url, count)
      : await measureDiskCommits(directory, count);
  return { p50: quantile(times, 0.5), p99: quantile(times, 0.99), count };
}

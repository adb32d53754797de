// @ts-check
// gate-overhead: the disk's own durable commit, measured in the store's folder, so each figure of
// a passed write (itself one durable commit) is printed beside the floor this disk sets.
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { quantile } from './measure.mjs';

/**
 * `count` commits of one 200-byte row each, in a SQLite database of its own in `dir`, with the
 * store's settings for a decision: WAL, `synchronous = FULL` (each commit fsyncs the WAL).
 */
export async function measureDiskCommits(dir, count = 200) {
  const folder = await mkdtemp(path.join(dir, 'disk-commit-'));
  const db = new Database(path.join(folder, 'commit.db'));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec('CREATE TABLE probe (id INTEGER PRIMARY KEY, value TEXT NOT NULL)');
    const insert = db.prepare('INSERT INTO probe (value) VALUES (?)');
    const commit = db.transaction((value) => insert.run(value));
    const row = 'x'.repeat(200);
    const times = [];
    for (let index = 0; index < count; index++) {
      const start = process.hrtime.bigint();
      commit(row);
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    return times;
  } finally {
    db.close();
    await rm(folder, { recursive: true, force: true });
  }
}

/** p50 and p99 of the commit times measured so far. */
export function commitQuantiles(times) {
  return { p50: quantile(times, 0.5), p99: quantile(times, 0.99) };
}

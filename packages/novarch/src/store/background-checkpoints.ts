import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/** How often the background connection checkpoints the WAL into the database file. */
export const CHECKPOINT_INTERVAL_MS = 1_000;
/** SQLite's own default: a checkpoint at the commit that takes the WAL past this many pages. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1_000;

// The worker's code, run with `eval` so that it works the same from `src/` (tests) and `dist/`.
// It opens its own connection to the store and runs a PASSIVE checkpoint every interval: PASSIVE
// never waits for a lock and never blocks a writer or a reader; with nothing new in the WAL it
// does nothing (no copy, no fsync). Its failures are the next attempt's business: a checkpoint
// only moves committed pages from the WAL into the database file, so a missed one loses nothing.
// On 'flush' it fsyncs the WAL file (several requests in a row coalesce into one): the pages of
// commits made without an fsync reach the disk beside the event loop, so the next durable commit
// has only its own to wait for. A failed flush loses nothing either: that commit fsyncs them all.
const WORKER_SOURCE = `
const { openSync, fsyncSync, closeSync } = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true, timeout: 0 });
const checkpoint = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {}
};
let wal;
let flushQueued = false;
const flush = () => {
  flushQueued = false;
  try {
    wal ??= openSync(workerData.file + '-wal', 'r');
    fsyncSync(wal);
    if (workerData.reportFlushes) parentPort.postMessage('flushed');
  } catch {}
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message === 'flush') {
    if (!flushQueued) {
      flushQueued = true;
      setImmediate(flush);
    }
    return;
  }
  if (message !== 'close') return;
  clearInterval(timer);
  try {
    if (wal !== undefined) closeSync(wal);
    db.close();
  } catch {}
  parentPort.close();
});
`;

/** A running background checkpointer; `stop` ends it (its connection closed). */
export interface BackgroundCheckpoints {
  /** Asks the worker to fsync the WAL soon (after a commit made without one); never waits. */
  flushSoon(): void;
  stop(): Promise<void>;
}

/**
 * Moves WAL checkpoints off the agent's path. SQLite checkpoints by itself in the commit that
 * takes the WAL past 1000 pages: that commit (a read's evidence insert, say) then copies ~1000
 * pages and fsyncs twice, 7-12 ms on these VMs, on the event loop (better-sqlite3 is synchronous).
 * Here the store's own connection stops checkpointing (`wal_autocheckpoint = 0`) and a worker
 * thread with a second connection checkpoints every `intervalMs` instead, beside the event loop.
 * Durability is unchanged: a checkpoint copies committed pages only, and a commit's durability
 * is decided by its own `synchronous` setting. Should the worker fail to start or stop, the store
 * checkpoints by itself again (SQLite's default), so the WAL never grows without bound.
 */
export function startBackgroundCheckpoints(
  database: Database.Database,
  file: string,
  intervalMs = CHECKPOINT_INTERVAL_MS,
  options: { onFlushed?: () => void } = {},
): BackgroundCheckpoints {
  const restoreAutomatic = () => {
    try {
      if (database.open) database.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`);
    } catch {
      // The store is closing; nothing is left to checkpoint for.
    }
  };
  let worker: Worker;
  try {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const reportFlushes = options.onFlushed !== undefined;
    worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver, file, intervalMs, reportFlushes },
    });
  } catch {
    return { flushSoon: () => {}, stop: async () => {} };
  }
  database.pragma('wal_autocheckpoint = 0');
  let stopping = false;
  // The worker must not keep the agent's process alive.
  worker.unref();
  worker.on('error', restoreAutomatic);
  if (options.onFlushed) {
    const onFlushed = options.onFlushed;
    worker.on('message', (message) => {
      if (message === 'flushed') onFlushed();
    });
  }
  const exited = new Promise<void>((resolve) => {
    worker.on('exit', () => {
      if (!stopping) restoreAutomatic();
      resolve();
    });
  });
  return {
    flushSoon() {
      if (!stopping) worker.postMessage('flush');
    },
    async stop() {
      stopping = true;
      // Referenced again while it closes: otherwise a process with nothing else to do would exit
      // before the worker did, leaving this promise (and an `await store.close()`) unsettled.
      worker.ref();
      worker.postMessage('close');
      const timeout = setTimeout(() => void worker.terminate(), 2_000);
      timeout.unref();
      await exited;
      clearTimeout(timeout);
    },
  };
}

import { renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../../src/index.js';
import { createTempStoreFiles } from '../../store/temp-store-file.js';

// Issue 14, items 8, 9 and 12: the store's locks, its file, and what it keeps.

const files = createTempStoreFiles();
afterAll(() => files.cleanup());
const scope = { tenantId: 'acme', teamId: 'cs-ops', agentId: 'bot' };
const now = () => new Date().toISOString();

describe('the SQLite store under attack', () => {
  /**
   * Item 12: the store is private. Before: created 0644 in a 0755 folder, so every account on
   * the machine could read every tool input and output.
   */
  it('creates the store 0600 in a 0700 folder (its WAL and SHM files too)', async () => {
    const file = path.join(path.dirname(files.next()), 'new-folder', 'novarch.db');
    const store = await openSqliteStore(file);
    const session = await store.createSession(scope, 5);
    await store.recordEvidence({
      sessionId: session.id,
      toolName: 'Read',
      input: {},
      output: 'x',
      isError: false,
      startedAt: now(),
      finishedAt: now(),
    });
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    for (const suffix of ['', '-wal', '-shm']) expect(statSync(`${file}${suffix}`).mode & 0o777).toBe(0o600);
    await store.close();
  });

  /**
   * Item 12: secrets are redacted and what is stored per call is bounded. Before: a `Read` of a
   * secrets file was stored verbatim, however large.
   */
  it('redacts API keys and bearer tokens (and configured patterns), and bounds a stored value with a marker', async () => {
    const store = await openSqliteStore(files.next(), { redact: [/employee-\d{4}/], maxStoredBytes: 4096 });
    const session = await store.createSession(scope, 5);
    const secrets = [
      'ANTHROPIC_API_KEY=sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789',
      'AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE',
      'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLXBhcnQ',
      'GITHUB_TOKEN=ghp_0123456789abcdefghijklmnopqrstuvwxyzAB',
      'badge employee-1234',
    ].join('\n');
    const evidence = await store.recordEvidence({
      sessionId: session.id,
      toolName: 'Read',
      input: { file_path: '/app/.env', token: 'sk-proj-0123456789abcdefghijklmn' },
      output: { content: secrets },
      isError: false,
      startedAt: now(),
      finishedAt: now(),
    });
    const [stored] = await store.listEvidence(session.id);
    expect(stored).toEqual(evidence);
    expect(JSON.stringify(stored)).not.toMatch(
      /sk-ant-api03|AKIAIOSFODNN7|eyJhbGci|ghp_0123|employee-1234|sk-proj/,
    );
    expect(stored?.output).toEqual({
      content: [
        'ANTHROPIC_API_KEY=[redacted]',
        'AWS_ACCESS_KEY_ID=[redacted]',
        'Authorization: Bearer [redacted]',
        'GITHUB_TOKEN=[redacted]',
        'badge [redacted]',
      ].join('\n'),
    });
    const big = await store.recordEvidence({
      sessionId: session.id,
      toolName: 'Read',
      input: {},
      output: 'x'.repeat(100_000),
      isError: false,
      startedAt: now(),
      finishedAt: now(),
    });
    expect(big.output).toEqual({
      novarchTruncated: { bytes: 100_002, limit: 4096, preview: `"${'x'.repeat(1023)}` },
    });
    await store.close();
  });

  /**
   * Item 8: a foreign write lock. Before: SQLite's busy wait froze the agent's event loop for
   * 10 s per statement. Now the wait is bounded (here 300 ms) and the write fails (the gate refuses).
   */
  it("bounds the wait for another process's write lock, then fails", async () => {
    const file = files.next();
    const store = await openSqliteStore(file, { lockWaitMs: 300 });
    const session = await store.createSession(scope, 5);
    const foreign = new Database(file);
    foreign.exec('begin immediate');
    const started = Date.now();
    await expect(store.killSession(session.id, 'stop')).rejects.toThrow(
      /another process held the store's write lock for more than 300 ms/,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    foreign.exec('rollback');
    foreign.close();
    await store.killSession(session.id, 'stop');
    expect((await store.getSession(session.id))?.killReason).toBe('stop');
    await store.close();
  });

  /**
   * The same wait does not freeze the event loop: a timer of this process ends the foreign lock
   * while the kill waits, and the kill then succeeds. A synchronous busy wait would keep the timer
   * from running until the wait gave up.
   */
  it("keeps the event loop running while it waits for another process's write lock", async () => {
    const file = files.next();
    const store = await openSqliteStore(file, { lockWaitMs: 60_000 });
    const session = await store.createSession(scope, 5);
    const foreign = new Database(file);
    foreign.exec('begin immediate');
    let released = false;
    setTimeout(() => {
      foreign.exec('rollback');
      released = true;
    }, 100);
    await store.killSession(session.id, 'stop');
    expect(released).toBe(true);
    expect((await store.getSession(session.id))?.killReason).toBe('stop');
    foreign.close();
    await store.close();
  });

  /**
   * Item 9: the store deleted or replaced mid-run. Before: writes went on into the unlinked file
   * (lost) or a file no operator sees. Now every operation fails, naming what happened.
   */
  it('fails every operation once the store file is deleted or replaced', async () => {
    const deletedFile = files.next();
    const deleted = await openSqliteStore(deletedFile);
    const session = await deleted.createSession(scope, 5);
    unlinkSync(deletedFile);
    await expect(deleted.getSession(session.id)).rejects.toThrow(
      `The Novarch store file ${deletedFile} was deleted while in use`,
    );
    await deleted.close();

    const replacedFile = files.next();
    const replaced = await openSqliteStore(replacedFile);
    const other = `${replacedFile}.other`;
    writeFileSync(other, '');
    renameSync(other, replacedFile);
    await expect(replaced.createSession(scope, 5)).rejects.toThrow(
      'was replaced by another file while in use',
    );
    await replaced.close();
  });
});

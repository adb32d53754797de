import { spawn } from 'node:child_process';
import { claudeProcesses } from './process-tree.js';
import { HOLODECK_BIN } from './run-holodeck-cli.js';

/**
 * Runs `holodeck test` and samples its live `claude` processes from /proc every 20 ms until it
 * exits: the most alive at once, and how many different ones there were.
 */
export function runCountingProcesses(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string; most: number; seen: number }>(
    (resolve, reject) => {
      const child = spawn(process.execPath, [HOLODECK_BIN, ...args], { env: { NO_COLOR: '1', ...env } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
      });
      let most = 0;
      const seen = new Set<number>();
      const sample = () => {
        if (child.pid === undefined) return;
        const alive = claudeProcesses(child.pid);
        for (const claude of alive) seen.add(claude.pid);
        most = Math.max(most, alive.length);
      };
      const timer = setInterval(sample, 20);
      child.on('error', (error) => {
        clearInterval(timer);
        reject(error);
      });
      child.on('close', (code) => {
        clearInterval(timer);
        resolve({ code, stdout, stderr, most, seen: seen.size });
      });
    },
  );
}

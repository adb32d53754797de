// @ts-check
// Preloaded (`node --import ./bench/child-probe.mjs ...`) into both processes that
// bench/chat-vs-sdk.mjs times, so each reports the same facts the same way: when the main
// module started, when the Claude CLI was spawned and exited, its own peak RSS and CPU time. One JSON
// line on stderr at exit, prefixed `bench-probe `. Costs well under a millisecond.
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import { performance } from 'node:perf_hooks';

const now = () => performance.timeOrigin + performance.now();
/** @type {{ processStart: number, preloaded: number, exitAt?: number, maxRssKb?: number, cpuSeconds?: number, children: { via: string, command: string | undefined, spawnedAt: number, exitedAt?: number, firstStdoutAt?: number }[] }} */
const probe = { processStart: performance.timeOrigin, preloaded: now(), children: [] };

// Wrap spawn/execFile before the SDK or HoloDeck bind them (ESM imports of builtins are synced).
for (const name of ['spawn', 'execFile']) {
  const original = childProcess[name];
  childProcess[name] = function probed(...args) {
    /** @type {(typeof probe.children)[number]} */
    const record = { via: name, command: String(args[0]).split('/').pop(), spawnedAt: now() };
    probe.children.push(record);
    const child = original.apply(this, args);
    child.once('exit', () => {
      record.exitedAt = now();
    });
    child.stdout?.once('data', () => {
      record.firstStdoutAt = now();
    });
    return child;
  };
}
syncBuiltinESMExports();

process.on('exit', () => {
  probe.exitAt = now();
  const usage = process.resourceUsage();
  probe.maxRssKb = usage.maxRSS;
  probe.cpuSeconds = (usage.userCPUTime + usage.systemCPUTime) / 1e6;
  // stderr is a pipe here: writes are synchronous on Linux, so this line is not lost.
  process.stderr.write(`bench-probe ${JSON.stringify(probe)}\n`);
});

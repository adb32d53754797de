// @ts-check
// gate-overhead: statistics, printing, and what a call's time is made of (schedstat, GC pauses).
import { openSync, readSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { paint } from './options.mjs';

// ---------------------------------------------------------------- statistics and printing

export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  // nearest rank: the smallest value with at least q of the samples at or below it
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)];
}

export const fixed = (value, digits) => (value === undefined ? '-' : value.toFixed(digits));
export const loadText = (load) => load.map((value) => value.toFixed(2)).join(' ');
export const QUANTILES = [
  ['p50', 0.5],
  ['p99', 0.99],
  ['max', 1],
];

/** Rows of one kind of call: the gated time, the baseline time and their difference at each quantile. */
export function overheadRows(label, gated, baseline, digits) {
  const at = (values) => QUANTILES.map(([, q]) => quantile(values, q));
  const g = at(gated);
  const b = at(baseline);
  return [
    [`${label}: gated`, gated.length, ...g.map((value) => fixed(value, digits))],
    [`${label}: baseline`, baseline.length, ...b.map((value) => fixed(value, digits))],
    [`${label}: overhead`, '', ...g.map((value, index) => fixed(value - b[index], digits))],
  ];
}

/** Progress on a terminal only; piped output stays a clean report. */
export function progress(text) {
  if (process.stderr.isTTY) process.stderr.write(`\r${text}\u001b[K`);
}

export function verdict(text, passed) {
  return `${text} -> ${passed ? paint('32', 'PASS') : paint('31', 'FAIL')}`;
}

/** The file system the store lives on (tmpfs makes fsync free, so say which). */
export async function fileSystemOf(dir) {
  try {
    const mounts = (await readFile('/proc/mounts', 'utf8'))
      .split('\n')
      .map((line) => line.split(' '))
      .filter((fields) => fields.length > 2);
    const resolved = path.resolve(dir);
    let best;
    for (const [device, mountPoint, type] of mounts) {
      const inside =
        resolved === mountPoint || resolved.startsWith(mountPoint === '/' ? '/' : `${mountPoint}/`);
      if (inside && (!best || mountPoint.length >= best.mountPoint.length))
        best = { device, mountPoint, type };
    }
    return best ? `${best.type} (${best.device} on ${best.mountPoint})` : 'unknown';
  } catch {
    return 'unknown';
  }
}

export const hrMs = (start) => Number(process.hrtime.bigint() - start) / 1e6;

/**
 * This thread's time on a CPU and waiting for one (ns), from /proc/self/schedstat (the main
 * thread, where better-sqlite3 runs). With the wall time it splits a call into CPU, run-queue
 * wait (other programs had the cores) and blocked (I/O such as an fsync). ~12 µs a read, taken
 * outside the timed span. Zeros where /proc is missing.
 */
export const schedstat = (() => {
  let fd;
  try {
    fd = openSync('/proc/self/schedstat', 'r');
  } catch {
    return () => [0, 0];
  }
  const buffer = Buffer.alloc(128);
  return () => {
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    const [run, wait] = buffer.toString('latin1', 0, length).split(' ');
    return [Number(run), Number(wait)];
  };
})();

/** Garbage-collection pauses of this process ([start, end] on performance.now()), to match against calls. */
export const gcPauses = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcPauses.push([entry.startTime, entry.startTime + entry.duration]);
}).observe({ entryTypes: ['gc'] });

/** Milliseconds of GC pause inside [from, to]. */
export function gcWithin(from, to) {
  let total = 0;
  for (const [start, end] of gcPauses) total += Math.max(0, Math.min(end, to) - Math.max(start, from));
  return total;
}

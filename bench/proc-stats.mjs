// @ts-check
// Linux /proc readings for bench/test-runner.mjs: the memory and `claude` processes of a process
// tree over time, and CPU time of reaped children and of the whole machine. No dependencies,
// no processes spawned (spawning `ps` every 100 ms would cost more CPU than it measures).
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const CLOCK_TICKS = 100; // USER_HZ: /proc times are in 1/100 s on Linux
const PAGE_KB = 4;

const now = () => performance.timeOrigin + performance.now();

/** pid -> {ppid, comm, rssKb} for every process, from /proc/<pid>/stat. */
function readProcesses() {
  const processes = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' '); // fields[0] is field 3 (state)
    processes.set(Number(entry), {
      ppid: Number(fields[1]),
      comm,
      rssKb: Number(fields[21]) * PAGE_KB,
    });
  }
  return processes;
}

/**
 * Samples the process tree under `pid` every `everyMs`: the sum of the RSS of all its processes
 * (shared pages, like the `claude` binary's text, count once per process) and how many `claude`
 * processes are alive. Costs a few ms of CPU per sample (reads /proc/<pid>/stat of every process).
 */
export function startTreeSampler(pid, startedAt, everyMs = 100) {
  const timeline = [];
  const sample = () => {
    const processes = readProcesses();
    const inTree = new Set([pid]);
    // parents usually have lower pids, but not always: iterate until no new descendant appears
    let grew = true;
    while (grew) {
      grew = false;
      for (const [candidate, info] of processes) {
        if (!inTree.has(candidate) && inTree.has(info.ppid)) {
          inTree.add(candidate);
          grew = true;
        }
      }
    }
    let rssKb = 0;
    let claude = 0;
    for (const member of inTree) {
      const info = processes.get(member);
      if (!info) continue;
      rssKb += info.rssKb;
      if (info.comm === 'claude') claude += 1;
    }
    timeline.push({ t: now() - startedAt, rssKb, claude });
  };
  const timer = setInterval(sample, everyMs);
  sample();
  return {
    stop() {
      clearInterval(timer);
      return timeline;
    },
  };
}

/** CPU seconds of this process's reaped children (and theirs): /proc/self/stat cutime + cstime. */
export function childrenCpuSeconds() {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS;
}

/** Busy CPU seconds of the whole machine, all cores (/proc/stat: total minus idle and iowait). */
export function machineBusySeconds() {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const total = ticks.slice(0, 8).reduce((sum, value) => sum + value, 0);
  return (total - ticks[3] - ticks[4]) / CLOCK_TICKS;
}

/** Cores that other programs keep busy: the machine's busy time over `windowMs` while we run nothing. */
export async function busyCores(windowMs = 2000) {
  const before = machineBusySeconds();
  await new Promise((resolve) => setTimeout(resolve, windowMs));
  return (machineBusySeconds() - before) / (windowMs / 1000);
}

import { readdirSync, readFileSync } from 'node:fs';

/** A running process: its id and command line. */
export interface ProcessInfo {
  pid: number;
  command: string;
}

function parentOf(pid: string): number | undefined {
  try {
    // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[0] === 'Z' ? undefined : Number(fields[1]);
  } catch {
    return undefined;
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** Every live (not zombie) descendant of `root`, from /proc (Linux). */
export function descendants(root: number): ProcessInfo[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = parentOf(entry);
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const found: ProcessInfo[] = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length) {
    const pid = queue.shift() as number;
    found.push({ pid, command: commandOf(pid) });
    queue.push(...(children.get(pid) ?? []));
  }
  return found;
}

/** Whether a process still runs (a zombie waiting to be reaped does not). */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] !== 'Z';
  } catch {
    return false;
  }
}

/** The `claude` CLI processes among `root`'s descendants. */
export function claudeProcesses(root: number): ProcessInfo[] {
  return descendants(root).filter((process) => /(^|\/)claude(\s|$)|claude-agent-sdk/.test(process.command));
}

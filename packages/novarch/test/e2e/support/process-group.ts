import { execFileSync } from 'node:child_process';
import { waitUntil } from '@holodeck/testkit';

/** A live (not zombie) process, as `ps` lists it. */
export interface GroupMember {
  pid: number;
  command: string;
}

/**
 * The live processes of a process group (a child spawned with `detached: true` leads its own).
 * Zombies are left out: an exited process whose parent was killed waits for init to reap it,
 * which can take seconds here, and it holds nothing but its process id.
 */
export function processGroupMembers(groupId: number): GroupMember[] {
  const listing = execFileSync('ps', ['-A', '-o', 'pid=,pgid=,stat=,comm='], { encoding: 'utf8' });
  return listing.split('\n').flatMap((line) => {
    const [pid, group, state, ...command] = line.trim().split(/\s+/);
    if (Number(group) !== groupId || state === undefined || state.startsWith('Z')) return [];
    return [{ pid: Number(pid), command: command.join(' ') }];
  });
}

/**
 * Resolves once no process of the group is alive; rejects, naming the survivors, when some are
 * still there after `timeoutMs` (processes a child started may take a moment to notice it is gone).
 */
export async function groupGone(groupId: number, timeoutMs = 10_000): Promise<void> {
  await waitUntil(() => processGroupMembers(groupId).length === 0, {
    timeoutMs,
    what: `process group ${groupId} to end`,
    intervalMs: 50,
  }).catch((error: unknown) => {
    const survivors = processGroupMembers(groupId);
    if (survivors.length === 0) return;
    throw new Error(`process group ${groupId} still has live processes: ${JSON.stringify(survivors)}`, {
      cause: error,
    });
  });
}

/** SIGKILLs a whole process group and resolves once none of its processes is alive. */
export async function killProcessGroup(groupId: number, timeoutMs = 10_000): Promise<void> {
  try {
    process.kill(-groupId, 'SIGKILL');
  } catch (error) {
    // ESRCH: the group is already gone.
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
  await groupGone(groupId, timeoutMs);
}

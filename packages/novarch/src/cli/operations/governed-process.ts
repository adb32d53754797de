import { readFileSync } from 'node:fs';
import { GOVERNED_SESSION_ENV } from '../../gate/governed-environment.js';
import { OperationRefusedError, OperatorUsageError } from '../operator-errors.js';

/**
 * Names an operator may not take: the identities Novarch itself decides under (`novarch` closes
 * holds that time out or are aborted), and the sources of its verdicts.
 */
const RESERVED_OPERATORS = new Set(['novarch', 'judge', 'gate', 'permissions', 'system', 'operator']);

/** Refuses an operator name Novarch reserves for itself (`novarch`, `novarch:…`, `judge`, …). */
export function checkOperatorName(name: string): string {
  const normalised = name.trim().toLowerCase();
  if (RESERVED_OPERATORS.has(normalised) || normalised.startsWith('novarch')) {
    throw new OperatorUsageError(
      `The operator name "${name.trim()}" is reserved for Novarch itself: pass your own name with --operator NAME.`,
    );
  }
  return name.trim();
}

/**
 * The governed session this process runs inside, if any: `NOVARCH_GOVERNED_SESSION` in its own
 * environment, or in the initial environment of one of its ancestors (Linux `/proc`), so that
 * `env -u NOVARCH_GOVERNED_SESSION novarch …` from the agent's shell is still recognised.
 */
export function governedSessionOf(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const own = env[GOVERNED_SESSION_ENV];
  if (own !== undefined) return own;
  return governedAncestor();
}

function governedAncestor(): string | undefined {
  let pid = process.ppid;
  for (let depth = 0; depth < 64 && pid > 1; depth++) {
    try {
      const environ = readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
      const marked = environ.find((entry) => entry.startsWith(`${GOVERNED_SESSION_ENV}=`));
      if (marked !== undefined) return marked.slice(GOVERNED_SESSION_ENV.length + 1);
      const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
      // `pid (comm) state ppid …`: comm may hold spaces and parentheses; the last `)` ends it.
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!Number.isSafeInteger(parent)) return undefined;
      pid = parent;
    } catch {
      return undefined; // no /proc (not Linux), or an ancestor of another account
    }
  }
  return undefined;
}

/** Refuses a decision (a hold decided, a session killed) from a process inside a governed session. */
export function refuseInsideGovernedSession(session: string | undefined, what: string): void {
  if (session === undefined) return;
  throw new OperationRefusedError(
    `Refused: this process runs inside a governed session (${GOVERNED_SESSION_ENV}=${JSON.stringify(session)} is set), ` +
      `and an agent may not ${what}. Run novarch from an operator's own shell. Nothing was changed.`,
  );
}

import { readFileSync } from 'node:fs';
import { OperationRefusedError, OperatorUsageError } from '../errors.js';
import { GOVERNED_SESSION_ENV } from '../gate/governed-environment.js';

/**
 * Names an operator may not take: the identities Novarch itself decides under (`novarch` closes
 * holds that time out or are aborted), and the sources of its verdicts.
 */
const RESERVED_OPERATORS = new Set(['novarch', 'judge', 'gate', 'permissions', 'system', 'operator']);

/** Characters a reader cannot see: controls, format characters (zero-width, bidi), line separators. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/**
 * Refuses an operator name Novarch reserves for itself (`novarch`, `novarch:…`, `judge`, …), also
 * when spelt with look-alikes (compared after NFKC: `ｎｏｖａｒｃｈ`), and any name with an invisible
 * character (`nov\u200barch` would read as `novarch` in the audit).
 */
export function checkOperatorName(name: string): string {
  const invisible = INVISIBLE.exec(name)?.[0];
  if (invisible !== undefined) {
    const hex = (character: string) => (character.codePointAt(0) ?? 0).toString(16).padStart(4, '0');
    const shown = name
      .trim()
      .replace(new RegExp(INVISIBLE.source, 'gu'), (character) => `\\u${hex(character)}`);
    throw new OperatorUsageError(
      `The operator name "${shown}" contains an invisible character (U+${hex(invisible).toUpperCase()}): type the name plainly.`,
    );
  }
  const normalised = name.normalize('NFKC').trim().toLowerCase();
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

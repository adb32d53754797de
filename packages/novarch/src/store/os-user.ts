import os from 'node:os';

let cached: string | undefined;

/**
 * The OS account this process runs as, stored with every decision (`decided_by_os_user`,
 * `killed_by_os_user`, `os_user`): an operator's `--operator` name is free text, the account is
 * what the OS says. `uid:N` when the account has no name (an arbitrary uid in a container).
 */
export function osUser(): string {
  if (cached !== undefined) return cached;
  try {
    cached = os.userInfo().username || `uid:${os.userInfo().uid}`;
  } catch {
    cached = typeof process.getuid === 'function' ? `uid:${process.getuid()}` : 'unknown';
  }
  return cached;
}

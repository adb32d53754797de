import { randomUUID } from 'node:crypto';

/** A fresh id such as `hold_0b7f…`: the prefix tells an operator what the id names. */
export function newId(prefix: string): string {
  return `${prefix}_${randomUUID()}`;
}

import { NovarchError } from '../errors.js';
import { isIdentityName } from './principal.js';

/** A name, tenant or grant that cannot be stored, with what to write instead. */
export class IdentityError extends NovarchError {
  override name = 'IdentityError';
}

/** Refuses a name, tenant or team that cannot be stored, saying what is allowed. */
export function checkName(what: string, value: string): void {
  if (!isIdentityName(value))
    throw new IdentityError(
      `${what} "${value}" is not valid: use 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit`,
    );
}

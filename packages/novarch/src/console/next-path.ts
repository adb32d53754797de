/**
 * Where the sign-in page sends an operator once signed in: the console page they asked for
 * (a hold link from a webhook, opened signed out), never anywhere else. Only a path of the
 * console itself is accepted, without `//`, `\`, `..` or a scheme, so the parameter cannot send
 * the browser to another site (open redirect); anything else means `/console`.
 */
const CONSOLE_PATH = /^\/console\/[A-Za-z0-9._~%!$&'()*+,;=:@/?-]*$/;

export function safeNextPath(value: string | undefined): string | undefined {
  if (value === undefined || value.length > 2048 || !CONSOLE_PATH.test(value)) return undefined;
  if (value.includes('//') || value.includes('/..') || value.startsWith('/console/sign-')) return undefined;
  return value;
}

/** The sign-in URL for a signed-out request of `path` (with its query), saying why. */
export function signInUrl(why: 'expired' | 'revoked' | undefined, path: string): string {
  const parameters = new URLSearchParams();
  if (why !== undefined) parameters.set(why, '1');
  const next = safeNextPath(path);
  if (next !== undefined) parameters.set('next', next);
  const query = parameters.toString();
  return `/console/sign-in${query === '' ? '' : `?${query}`}`;
}

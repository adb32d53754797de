import { packageVersion } from 'package-version';

/**
 * Novarch's version, read from its package.json: the one place it is written (`novarch --version`
 * and the server's OpenAPI document show it).
 */
export function novarchVersion(): string {
  return packageVersion(import.meta.url, 'novarch');
}

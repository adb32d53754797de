import { packageVersion } from 'package-version';

/**
 * HoloDeck's version, read from its package.json: the one place it is written. Found from this
 * module's place, so it works from dist/, from the CLI bundle (dist/bundle/cli/, where
 * import.meta.url is the bundle's) and from src/ under tsx.
 */
export function holodeckVersion(): string {
  return packageVersion(import.meta.url, 'holodeck');
}

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const cache = new Map<string, string>();

/**
 * The version in package `name`'s package.json, found by walking up from `moduleUrl` (pass
 * `import.meta.url`): the one place a version is written. Works from dist/, from src/ under tsx
 * and from a bundle (where `import.meta.url` is the bundle's, inside the package). Throws when no
 * package.json of that name is above the module: a packaging bug, never a user's error.
 */
export function packageVersion(moduleUrl: string, name: string): string {
  const key = `${name}\n${moduleUrl}`;
  let version = cache.get(key);
  if (version === undefined) {
    version = findVersion(moduleUrl, name);
    cache.set(key, version);
  }
  return version;
}

function findVersion(moduleUrl: string, name: string): string {
  const start = path.dirname(fileURLToPath(moduleUrl));
  for (let folder = start; ; folder = path.dirname(folder)) {
    const manifest = readManifest(path.join(folder, 'package.json'));
    if (manifest?.name === name) return manifest.version;
    if (path.dirname(folder) === folder) break;
  }
  throw new Error(`${name}'s package.json was not found above ${start}: this is a bug in ${name}`);
}

/** `name` and `version` of a package.json; undefined when it is absent, not JSON, or lacks them. */
function readManifest(file: string): { name: string; version: string } | undefined {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined; // absent, or not JSON: not ours, keep looking
  }
  if (typeof json !== 'object' || json === null) return undefined;
  const name = 'name' in json ? json.name : undefined;
  const version = 'version' in json ? json.version : undefined;
  return typeof name === 'string' && typeof version === 'string' ? { name, version } : undefined;
}

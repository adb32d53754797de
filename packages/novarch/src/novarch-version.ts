import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const PackageJson = z.object({ name: z.string(), version: z.string() });

let cached: string | undefined;

/**
 * Novarch's version, read from its package.json: the one place it is written (`novarch --version`
 * and the server's OpenAPI document show it). Found by walking up from this module, so it works
 * from dist/ and from src/ under tsx.
 */
export function novarchVersion(): string {
  cached ??= readOwnPackageJson().version;
  return cached;
}

function readOwnPackageJson(): z.infer<typeof PackageJson> {
  const start = path.dirname(fileURLToPath(import.meta.url));
  for (let folder = start; ; folder = path.dirname(folder)) {
    const candidate = readPackageJson(path.join(folder, 'package.json'));
    if (candidate?.name === 'novarch') return candidate;
    if (path.dirname(folder) === folder) break;
  }
  throw new Error(`novarch's package.json was not found above ${start}: this is a bug in novarch`);
}

function readPackageJson(file: string): z.infer<typeof PackageJson> | undefined {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined; // absent, or not JSON: not ours, keep looking
  }
  const parsed = PackageJson.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

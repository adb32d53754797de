import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

/** Everything that determines a judge answer; its hash is the cache key. */
export interface JudgeCacheKeyParts {
  model: string;
  system: string;
  prompt: string;
  verdictSchema: Record<string, unknown>;
  temperature: number;
  /** The sample index of a repeated request (g-eval \`samples\`); 0 or unset leaves the key as it was. */
  sample?: number | undefined;
}

/** Version of the cache file format; bump it when the layout changes (old files are then misses). */
export const JUDGE_CACHE_SCHEMA_VERSION = 1;

const cacheFileSchema = z.object({
  schemaVersion: z.literal(JUDGE_CACHE_SCHEMA_VERSION),
  key: z.string(),
  verdict: z.record(z.string(), z.unknown()),
});

/** sha256 (hex) of the full judge input. Key order is fixed, so equal inputs give equal keys. */
export function judgeCacheKey(parts: JudgeCacheKeyParts): string {
  const canonical = JSON.stringify([
    parts.model,
    parts.system,
    parts.prompt,
    canonicalJson(parts.verdictSchema),
    parts.temperature,
    // Appended only for samples after the first, so keys cached before samples existed stay valid.
    ...(parts.sample ? [parts.sample] : []),
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}

/** JSON with object keys sorted, so two equal schemas written in different key orders hash alike. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Path of the cache file of one key: `<cacheDir>/<sha256>.json`. */
export function judgeCacheFile(cacheDir: string, key: string): string {
  return join(cacheDir, `${key}.json`);
}

/**
 * The cached verdict of `key`, or undefined on a miss. A missing, unreadable or foreign file is
 * a miss (it is overwritten by the next answer), never an error.
 */
export async function readCachedVerdict(
  cacheDir: string,
  key: string,
): Promise<Record<string, unknown> | undefined> {
  let text: string;
  try {
    text = await readFile(judgeCacheFile(cacheDir, key), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = cacheFileSchema.safeParse(JSON.parse(text));
    return parsed.success && parsed.data.key === key ? parsed.data.verdict : undefined;
  } catch {
    return undefined;
  }
}

/** Stores a verdict atomically (temporary file, then rename), so readers never see half a file. */
export async function writeCachedVerdict(
  cacheDir: string,
  key: string,
  model: string,
  verdict: Record<string, unknown>,
): Promise<void> {
  await mkdir(cacheDir, { recursive: true });
  const file = judgeCacheFile(cacheDir, key);
  const temporary = `${file}.${process.pid}.${randomUUID()}.tmp`;
  const content = {
    schemaVersion: JUDGE_CACHE_SCHEMA_VERSION,
    key,
    model,
    createdAt: new Date().toISOString(),
    verdict,
  };
  try {
    await writeFile(temporary, `${JSON.stringify(content, null, 2)}\n`, 'utf8');
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { UsageError } from '../errors.js';

/** The variable holding comma-separated API keys (plain text) for `holodeck serve`. */
export const API_KEYS_VARIABLE = 'HOLODECK_SERVE_API_KEYS';

/** A key as the keys file keeps it: its id and the SHA-256 of the key, never the key. */
const StoredKeySchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  createdAt: z.string(),
});
const KeysFileSchema = z.strictObject({ keys: z.array(StoredKeySchema) });
type StoredKey = z.infer<typeof StoredKeySchema>;

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/**
 * The API keys a server accepts. Keys are random (256 bits), so a plain SHA-256 is enough to keep
 * the file useless to whoever reads it; a bearer token is compared in constant time to each hash.
 */
export class ApiKeys {
  private constructor(private readonly keys: readonly { id: string; hash: Buffer }[]) {}

  /** No keys: the server runs open (loopback only). */
  static none(): ApiKeys {
    return new ApiKeys([]);
  }

  /** Keys of `--keys FILE` and/or `HOLODECK_SERVE_API_KEYS`. Throws UsageError for a bad file. */
  static load(file: string | undefined, variable: string | undefined): ApiKeys {
    const keys: { id: string; hash: Buffer }[] = [];
    if (file !== undefined) {
      for (const key of readKeysFile(file)) keys.push({ id: key.id, hash: Buffer.from(key.sha256, 'hex') });
    }
    for (const plain of (variable ?? '').split(',').map((part) => part.trim())) {
      if (plain === '') continue;
      const hash = sha256(plain);
      keys.push({ id: `env-${hash.toString('hex').slice(0, 8)}`, hash });
    }
    return new ApiKeys(keys);
  }

  /** Whether any key is configured (otherwise requests are not authenticated). */
  get enabled(): boolean {
    return this.keys.length > 0;
  }

  /** The id of the key `token` is, or undefined. */
  verify(token: string): string | undefined {
    const hash = sha256(token);
    let found: string | undefined;
    for (const key of this.keys) if (timingSafeEqual(key.hash, hash) && found === undefined) found = key.id;
    return found;
  }
}

function readKeysFile(file: string): StoredKey[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(
      '--keys',
      `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      `create it with: holodeck serve keys create --keys ${file}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(
      '--keys',
      `${file} is not JSON`,
      'it is written by holodeck serve keys create; do not edit it by hand',
    );
  }
  const result = KeysFileSchema.safeParse(parsed);
  if (!result.success)
    throw new UsageError(
      '--keys',
      `${file} is not a keys file: ${result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ')}`,
      'it is written by holodeck serve keys create; do not edit it by hand',
    );
  return result.data.keys;
}

/** A key created by `createApiKey`: the key itself (shown once) and its id. */
export interface CreatedKey {
  id: string;
  key: string;
}

/**
 * `holodeck serve keys create`: a new random key, added to `file` (created with mode 0600) as its
 * hash. The key itself is returned to be shown once; it is stored nowhere.
 */
export function createApiKey(file: string, id?: string): CreatedKey {
  const keys = existsSync(file) ? readKeysFile(file) : [];
  const chosen = id ?? `key-${keys.length + 1}`;
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(chosen))
    throw new UsageError('--name', `"${chosen}" is not a key name`, 'use 1-64 letters, digits, "-" or "_"');
  if (keys.some((key) => key.id === chosen))
    throw new UsageError('--name', `${file} already has a key named "${chosen}"`, 'pick another --name');
  const key = `hdk_${randomBytes(32).toString('base64url')}`;
  const stored: StoredKey = {
    id: chosen,
    sha256: sha256(key).toString('hex'),
    createdAt: new Date().toISOString(),
  };
  writeFileSync(file, `${JSON.stringify({ keys: [...keys, stored] }, null, 2)}\n`, { mode: 0o600 });
  return { id: chosen, key };
}

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Agent keys start with `nva_`, operator tokens with `nvo_`: recognisable in a leaked log or a diff. */
export const AGENT_KEY_PREFIX = 'nva_';
export const OPERATOR_TOKEN_PREFIX = 'nvo_';
export type SecretPrefix = typeof AGENT_KEY_PREFIX | typeof OPERATOR_TOKEN_PREFIX;

/** A new credential: its public id (`nva_3f9c…`, stored and listed), the whole secret text (shown once), its hash. */
export interface NewSecret {
  id: string;
  text: string;
  hash: string;
}

const ID_HEX_LENGTH = 12;
const SECRET_BYTES = 32;
const SECRET_PATTERN = /^(nv[ao]_[0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

/**
 * Makes a credential `<prefix><12 hex>_<43 base64url chars>`: the first part is its id (it says
 * which row to compare against, so no lookup is made by the secret itself), the rest 256 random
 * bits. Only the SHA-256 of that random part is stored. A fast hash is enough here, unlike for
 * passwords: with 256 bits of entropy no guess of the secret is feasible, so a slow KDF (bcrypt,
 * scrypt) would only cost every request time without protecting anything more.
 */
export function newSecret(prefix: SecretPrefix): NewSecret {
  const id = `${prefix}${randomBytes(ID_HEX_LENGTH / 2).toString('hex')}`;
  const secret = randomBytes(SECRET_BYTES).toString('base64url');
  return { id, text: `${id}_${secret}`, hash: hashSecret(secret) };
}

/** The id and random part of a credential's text, or undefined when it is not one. */
export function parseSecret(text: string): { id: string; secret: string } | undefined {
  const match = SECRET_PATTERN.exec(text);
  if (!match?.[1] || !match[2]) return undefined;
  return { id: match[1], secret: match[2] };
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Whether `secret` hashes to `storedHash`, compared in constant time. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const given = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** A session's secret starts with `nvs_`: the remote engine that opened the session holds it. */
export const SESSION_SECRET_PREFIX = 'nvs_';

/**
 * A new session secret (`nvs_` + 43 base64url characters, 256 random bits) and the SHA-256 of
 * its whole text, which is all the store keeps.
 */
export function newSessionSecret(): { text: string; hash: string } {
  const text = `${SESSION_SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64url')}`;
  return { text, hash: hashSecret(text) };
}

/** A credential just created: `secret` is shown once, here, and stored only as a hash. */
export interface Created<Info> {
  info: Info;
  secret: string;
}

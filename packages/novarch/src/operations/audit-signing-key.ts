import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { OperatorUsageError } from '../errors.js';
import { errorMessage } from '../support.js';

const MAKE_ONE = 'Make one with: openssl genpkey -algorithm ed25519 -out audit-signing-key.pem';

/** Reads an Ed25519 private key (PEM) from `file`: what signs audit exports. */
export function loadSigningKey(file: string): KeyObject {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new OperatorUsageError(
      `Cannot read the audit signing key ${file}: ${errorMessage(error)}. ${MAKE_ONE}`,
    );
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(text);
  } catch {
    // The reason would quote nothing useful, and never the key's text.
    throw new OperatorUsageError(`The audit signing key ${file} is not a PEM private key. ${MAKE_ONE}`);
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new OperatorUsageError(
      `The audit signing key ${file} is a ${key.asymmetricKeyType ?? 'unknown'} key; audit exports are signed with Ed25519. ${MAKE_ONE}`,
    );
  }
  return key;
}

/** Reads the Ed25519 public key an export must be signed with (a private key file gives its public half). */
export function loadVerifyingKey(file: string): KeyObject {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new OperatorUsageError(`Cannot read the public key ${file}: ${errorMessage(error)}.`);
  }
  let key: KeyObject;
  try {
    key = createPublicKey(text);
  } catch {
    throw new OperatorUsageError(
      `The public key ${file} is not a PEM key. Get it from the signing key with: openssl pkey -in audit-signing-key.pem -pubout -out audit-signing-key.pub`,
    );
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new OperatorUsageError(
      `The public key ${file} is a ${key.asymmetricKeyType ?? 'unknown'} key; audit exports are signed with Ed25519.`,
    );
  }
  return key;
}

/** The public key as SPKI DER, base64 (what an export carries). */
export function publicKeyBase64(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  return publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
}

/** `sha256:<hex>` of the SPKI DER: how a key is named in reports. */
export function keyFingerprint(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return `sha256:${createHash('sha256').update(der).digest('hex')}`;
}

import { createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import { OperatorUsageError } from '../errors.js';
import {
  AUDIT_GENESIS_HASH,
  type AuditChainFilter,
  type AuditChainReport,
  type AuditProblem,
  auditRecordDigest,
  canonicalJson,
  checkAuditLinks,
} from '../model/audit-chain.js';
import type { AuditChainStore } from '../model/novarch-store.js';
import {
  AUDIT_EXPORT_FORMAT_VERSION,
  type AuditExport,
  AuditExportSchema,
} from '../wire/audit-chain-schemas.js';
import { keyFingerprint, publicKeyBase64 } from './audit-signing-key.js';

/**
 * An export of the chains `filter` names: each link with the record it vouches for, the chain's
 * head, and, with `signingKey`, an Ed25519 signature over all of it. Checked offline by
 * `verifyAuditExport` (`novarch audit verify --export FILE`), with no store at hand.
 */
export async function buildAuditExport(
  store: AuditChainStore,
  filter: AuditChainFilter,
  options: { signingKey?: KeyObject; now: Date },
): Promise<AuditExport> {
  const chains: AuditExport['chains'] = [];
  for (const chain of await store.listAuditChains(filter)) {
    const { links, records } = await store.readAuditChain(chain);
    const last = links.at(-1);
    chains.push({
      chain,
      head: { chain, position: last?.position ?? 0, hash: last?.hash ?? AUDIT_GENESIS_HASH },
      links: links.map((link, index) => ({ ...link, record: records[index] ?? null })),
    });
  }
  const body: AuditExport = {
    format: 'novarch-audit-export',
    formatVersion: AUDIT_EXPORT_FORMAT_VERSION,
    exportedAt: options.now.toISOString(),
    chains,
  };
  if (options.signingKey === undefined) return body;
  const value = sign(null, Buffer.from(canonicalJson(body), 'utf8'), options.signingKey).toString('base64');
  return {
    ...body,
    signature: {
      algorithm: 'ed25519',
      publicKey: publicKeyBase64(options.signingKey),
      keyFingerprint: keyFingerprint(options.signingKey),
      value,
    },
  };
}

/** What an offline check of an export found. */
export interface AuditExportVerification {
  chains: AuditChainReport[];
  /** `valid` (by `keyFingerprint`), `absent` (the export is not signed) or `invalid`. */
  signature: { status: 'valid' | 'absent' | 'invalid'; keyFingerprint?: string };
  /** Every chain intact and, when signed or a key was required, the signature valid. */
  intact: boolean;
}

/**
 * Checks an export's text offline: its links (order, hashes, head), each record against its
 * link's digest, and its signature. With `requiredKey`, the export must be signed by that key (an
 * export signed by anyone else, or not at all, fails): the embedded key alone proves only that
 * the file was not changed since someone signed it.
 */
export function verifyAuditExport(
  text: string,
  source: string,
  requiredKey?: KeyObject,
): AuditExportVerification {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new OperatorUsageError(
      `${source} is not JSON (${error instanceof Error ? error.message : String(error)}): is it a file written by \`novarch audit export\`?`,
    );
  }
  const parsed = AuditExportSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : '(top level)';
    throw new OperatorUsageError(
      `${source} is not a Novarch audit export (format ${AUDIT_EXPORT_FORMAT_VERSION}): at ${where}: ${issue?.message ?? 'invalid'}. Write one with \`novarch audit export\`.`,
    );
  }
  const exported = parsed.data;
  const chains = exported.chains.map((chain): AuditChainReport => {
    const { problems, head } = checkAuditLinks(chain.chain, chain.links);
    for (const link of chain.links) {
      const where = { chain: chain.chain, position: link.position, recordId: link.recordId };
      const noun = link.kind.replace('_', ' ');
      if (link.record === null) {
        problems.push({
          kind: 'deleted_record',
          ...where,
          message: `The ${noun} ${link.recordId} (link ${link.position}) was not in the store when this was exported: deleted.`,
        });
      } else if (auditRecordDigest(link.record) !== link.digest) {
        problems.push({
          kind: 'edited_record',
          ...where,
          message: `The ${noun} ${link.recordId} (link ${link.position}) does not match its link: edited.`,
        });
      }
    }
    if (head.position !== chain.head.position || head.hash !== chain.head.hash) {
      problems.push({
        kind: 'head_mismatch',
        chain: chain.chain,
        message: `The export's head says position ${chain.head.position}, its links end at ${head.position}: links were removed or the head was changed.`,
      });
    }
    return { chain: chain.chain, links: chain.links.length, head, problems };
  });
  const signature = checkSignature(exported, requiredKey);
  if (signature.problem !== undefined) {
    chains.push({
      chain: '(signature)',
      links: 0,
      head: { chain: '(signature)', position: 0, hash: AUDIT_GENESIS_HASH },
      problems: [signature.problem],
    });
  }
  const intact = chains.every((chain) => chain.problems.length === 0);
  return { chains, signature: signature.result, intact };
}

function checkSignature(
  exported: AuditExport,
  requiredKey: KeyObject | undefined,
): { result: AuditExportVerification['signature']; problem?: AuditProblem } {
  const problem = (message: string): AuditProblem => ({
    kind: 'bad_signature',
    chain: '(signature)',
    message,
  });
  const { signature, ...body } = exported;
  if (signature === undefined) {
    return requiredKey === undefined
      ? { result: { status: 'absent' } }
      : {
          result: { status: 'absent' },
          problem: problem(`The export is not signed; it must be signed by ${keyFingerprint(requiredKey)}.`),
        };
  }
  let key: KeyObject;
  try {
    key = createPublicKey({ key: Buffer.from(signature.publicKey, 'base64'), format: 'der', type: 'spki' });
  } catch {
    return {
      result: { status: 'invalid' },
      problem: problem("The export's public key does not parse: the signature cannot be checked."),
    };
  }
  const fingerprint = keyFingerprint(key);
  const valid =
    key.asymmetricKeyType === 'ed25519' &&
    verify(null, Buffer.from(canonicalJson(body), 'utf8'), key, Buffer.from(signature.value, 'base64'));
  if (!valid) {
    return {
      result: { status: 'invalid', keyFingerprint: fingerprint },
      problem: problem(
        `The signature (key ${fingerprint}) does not match the export: it was changed after it was signed.`,
      ),
    };
  }
  if (requiredKey !== undefined && keyFingerprint(requiredKey) !== fingerprint) {
    return {
      result: { status: 'invalid', keyFingerprint: fingerprint },
      problem: problem(
        `The export is signed by ${fingerprint}, not by the required key ${keyFingerprint(requiredKey)}.`,
      ),
    };
  }
  return { result: { status: 'valid', keyFingerprint: fingerprint } };
}

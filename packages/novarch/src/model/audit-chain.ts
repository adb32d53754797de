import { createHash } from 'node:crypto';

/**
 * What a link of the audit chain stands for: a verdict, a hold placed, one operator's approval of
 * a hold (each approval of a quorum, with the edited input of an approve-with-edit), a hold
 * decided, a session killed, or a team's rules changed. Every decision Novarch stores gets one
 * link, written in the same transaction as the decision itself.
 */
export type AuditLinkKind = 'verdict' | 'hold' | 'hold_approval' | 'hold_decision' | 'kill' | 'rule_change';

/** The kinds, in the order `novarch audit verify` lists them. */
export const AUDIT_LINK_KINDS = [
  'verdict',
  'hold',
  'hold_approval',
  'hold_decision',
  'kill',
  'rule_change',
] as const satisfies readonly AuditLinkKind[];

/**
 * One link of a chain. `chain` is `tenant:<id>` for a tenant's decisions and `rules:<team>` for a
 * team's rule changes (rule sets belong to a team, not a tenant). `digest` is the SHA-256 of the
 * record's canonical content (`auditRecordDigest`); `hash` covers every other field and
 * `prevHash`, so an edited, removed, inserted or moved link breaks every hash after it.
 */
export interface AuditLink {
  chain: string;
  /** 1 for the chain's first link, then +1: a gap is a removed link. */
  position: number;
  kind: AuditLinkKind;
  /**
   * The record's id: the verdict's, the hold's, `<hold>#<n>` (its n-th approval), the session's
   * (kill), `<team>@<version>` (rules).
   */
  recordId: string;
  digest: string;
  prevHash: string;
  hash: string;
  recordedAt: string;
}

/** The end of a chain: its last position (0 when empty) and that link's hash. */
export interface AuditChainHead {
  chain: string;
  position: number;
  hash: string;
}

/** What a chain's first link points back to: 64 zeros (no link before it). */
export const AUDIT_GENESIS_HASH = '0'.repeat(64);

/** The chain of a tenant's decisions. */
export function tenantChain(tenantId: string): string {
  return `tenant:${tenantId}`;
}

/** The chain of a team's rule changes. */
export function rulesChain(team: string): string {
  return `rules:${team}`;
}

/**
 * JSON with object keys sorted at every depth and no whitespace: the same content always gives
 * the same text (and so the same hash), whatever order a database or a decoder returned it in.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value)
    .filter(([, field]) => field !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, field]) => `${JSON.stringify(key)}:${canonicalJson(field)}`).join(',')}}`;
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** SHA-256 (hex) of a record's content as `canonicalJson` writes it. */
export function auditRecordDigest(material: unknown): string {
  return sha256(canonicalJson(material));
}

/** The hash of a link: over every field but `hash` itself, `prevHash` included. */
export function auditLinkHash(link: Omit<AuditLink, 'hash'>): string {
  return sha256(
    canonicalJson({
      chain: link.chain,
      position: link.position,
      kind: link.kind,
      recordId: link.recordId,
      digest: link.digest,
      prevHash: link.prevHash,
      recordedAt: link.recordedAt,
    }),
  );
}

/** What is wrong with a chain, as `novarch audit verify` reports it. */
export type AuditProblemKind =
  | 'edited_record'
  | 'deleted_record'
  | 'unchained_record'
  | 'reordered_record'
  | 'edited_link'
  | 'missing_link'
  | 'broken_link'
  | 'head_mismatch'
  | 'bad_signature';

/** One problem found, with where it is and what it means. */
export interface AuditProblem {
  kind: AuditProblemKind;
  chain: string;
  /** The link's position, when the problem is at a link. */
  position?: number;
  recordId?: string;
  message: string;
}

/**
 * Checks the links of one chain, oldest first, starting after `start` (the chain's genesis when
 * omitted): positions follow one another, each link's `prevHash` is the hash before it and its
 * own hash matches its fields. Returns the problems and the head reached. Pure: the live store
 * and an offline export are checked by this same code.
 */
export function checkAuditLinks(
  chain: string,
  links: readonly AuditLink[],
  start: { position: number; hash: string } = { position: 0, hash: AUDIT_GENESIS_HASH },
): { problems: AuditProblem[]; head: AuditChainHead } {
  const problems: AuditProblem[] = [];
  let position = start.position;
  let hash = start.hash;
  for (const link of links) {
    if (link.chain !== chain) {
      problems.push({
        kind: 'broken_link',
        chain,
        position: link.position,
        recordId: link.recordId,
        message: `The link at position ${link.position} belongs to chain ${link.chain}, not ${chain}.`,
      });
    }
    if (link.position !== position + 1) {
      problems.push({
        kind: link.position > position + 1 ? 'missing_link' : 'broken_link',
        chain,
        position: link.position,
        recordId: link.recordId,
        message:
          link.position > position + 1
            ? `Links ${position + 1}–${link.position - 1} are missing: removed from the chain.`
            : `The link at position ${link.position} repeats or goes back after position ${position}.`,
      });
    }
    const expected = auditLinkHash(link);
    if (expected !== link.hash) {
      problems.push({
        kind: 'edited_link',
        chain,
        position: link.position,
        recordId: link.recordId,
        message: `The link at position ${link.position} (${link.kind} ${link.recordId}) was changed after it was written: its hash does not match its fields.`,
      });
    } else if (link.prevHash !== hash) {
      problems.push({
        kind: 'broken_link',
        chain,
        position: link.position,
        recordId: link.recordId,
        message: `The link at position ${link.position} (${link.kind} ${link.recordId}) does not follow the link before it: a link was inserted, removed or moved.`,
      });
    }
    position = link.position;
    hash = link.hash;
  }
  return { problems, head: { chain, position, hash } };
}

/** What `verify` found on one chain: how many links, the head reached, and every problem. */
export interface AuditChainReport {
  chain: string;
  links: number;
  head: AuditChainHead;
  problems: AuditProblem[];
}

/** A record's content as its link vouches for it (`kind` plus the stored columns). */
export type AuditRecordContent = { readonly kind: AuditLinkKind } & Readonly<Record<string, unknown>>;

/** One chain's links, with each record's content as stored now (undefined: the record is gone). */
export interface ChainedRecords {
  links: AuditLink[];
  records: (AuditRecordContent | undefined)[];
}

/** Which chains to look at: a tenant's, a team's rules', or (neither) every chain of the store. */
export interface AuditChainFilter {
  tenantId?: string;
  team?: string;
}

import { z } from 'zod';
import { AUDIT_LINK_KINDS } from '../model/audit-chain.js';

// The audit chain as it crosses HTTP and as an export file holds it. An export is read offline by
// `novarch audit verify --export FILE`, which parses it with these schemas before checking it.

const kind = z.enum(AUDIT_LINK_KINDS);

const hex64 = z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 in lowercase hex');

export const AuditLinkSchema = z.object({
  chain: z.string().min(1),
  position: z.int().min(1),
  kind,
  recordId: z.string(),
  digest: hex64,
  prevHash: hex64,
  hash: z.string(),
  recordedAt: z.string(),
});

export const AuditChainHeadSchema = z.object({
  chain: z.string(),
  position: z.int().min(0),
  hash: hex64,
});

export const AuditProblemSchema = z.object({
  kind: z.enum([
    'edited_record',
    'deleted_record',
    'unchained_record',
    'reordered_record',
    'edited_link',
    'missing_link',
    'broken_link',
    'head_mismatch',
    'bad_signature',
  ]),
  chain: z.string(),
  position: z.int().optional(),
  recordId: z.string().optional(),
  message: z.string(),
});

export const AuditChainReportSchema = z.object({
  chain: z.string(),
  links: z.int().min(0),
  head: AuditChainHeadSchema,
  problems: z.array(AuditProblemSchema),
});

/** What `GET /v1/audit/verify` answers: every chain the credential sees, and whether all are intact. */
export const AuditVerificationSchema = z.object({
  intact: z.boolean(),
  chains: z.array(AuditChainReportSchema),
});

/** The format version of audit exports this Novarch writes and reads. */
export const AUDIT_EXPORT_FORMAT_VERSION = 1;

/** One chain in an export: its head, and each link with the record it vouches for (null: gone). */
export const AuditExportChainSchema = z.object({
  chain: z.string(),
  head: AuditChainHeadSchema,
  links: z.array(AuditLinkSchema.extend({ record: z.looseObject({ kind }).nullable() })),
});

/** The Ed25519 signature over the export's canonical JSON without `signature`. */
export const AuditExportSignatureSchema = z.object({
  algorithm: z.literal('ed25519'),
  /** The public key, SPKI DER in base64. */
  publicKey: z.string(),
  /** `sha256:` and the hex SHA-256 of the SPKI DER: how an operator names the key. */
  keyFingerprint: z.string(),
  value: z.string(),
});

export const AuditExportSchema = z.object({
  format: z.literal('novarch-audit-export'),
  formatVersion: z.literal(AUDIT_EXPORT_FORMAT_VERSION),
  exportedAt: z.string(),
  chains: z.array(AuditExportChainSchema),
  signature: AuditExportSignatureSchema.optional(),
});

/** A parsed audit export. */
export type AuditExport = z.infer<typeof AuditExportSchema>;

import type { Kysely } from 'kysely';
import {
  AUDIT_LINK_KINDS,
  type AuditChainFilter,
  type AuditChainReport,
  type AuditLink,
  type AuditLinkKind,
  type AuditProblem,
  auditRecordDigest,
  type ChainedRecords,
  checkAuditLinks,
  rulesChain,
  tenantChain,
} from '../model/audit-chain.js';
import {
  type AuditRecordMaterial,
  holdApprovalMaterial,
  holdDecisionMaterial,
  holdMaterial,
  killMaterial,
  legacyHoldMaterial,
  parseHoldApprovalId,
  ruleChangeId,
  ruleChangeMaterial,
} from './audit-record-material.js';
import {
  chainedVerdictMaterial,
  selectChainedVerdicts,
  selectSetAsideVerdicts,
} from './chained-verdict-rows.js';
import { selectApprovedHolds } from './hold-approval-links.js';
import type { StoreTables } from './store-tables.js';
import { unchainedRecords } from './unchained-audit-records.js';

const PAGE = 500;

/** The chains the filter names, or every chain: those with links, and those that should have some. */
export async function listAuditChains(
  db: Kysely<StoreTables>,
  filter: AuditChainFilter = {},
): Promise<string[]> {
  if (filter.tenantId !== undefined || filter.team !== undefined) {
    return [
      ...(filter.tenantId === undefined ? [] : [tenantChain(filter.tenantId)]),
      ...(filter.team === undefined ? [] : [rulesChain(filter.team)]),
    ];
  }
  const heads = await db.selectFrom('audit_heads').select('chain').execute();
  const linked = await db.selectFrom('audit_links').select('chain').distinct().execute();
  const tenants = await db.selectFrom('sessions').select('tenant_id').distinct().execute();
  const teams = await db.selectFrom('rule_sets').select('team').distinct().execute();
  const chains = new Set([
    ...heads.map((row) => row.chain),
    ...linked.map((row) => row.chain),
    ...tenants.map((row) => tenantChain(row.tenant_id)),
    ...teams.map((row) => rulesChain(row.team)),
  ]);
  return [...chains].sort();
}

/** Reads one page of a chain's links, by position. */
async function linksAfter(db: Kysely<StoreTables>, chain: string, after: number): Promise<AuditLink[]> {
  const rows = await db
    .selectFrom('audit_links')
    .selectAll()
    .where('chain', '=', chain)
    .where('position', '>', after)
    .orderBy('position', 'asc')
    .limit(PAGE)
    .execute();
  return rows.map((row) => {
    const kind = AUDIT_LINK_KINDS.find((known) => known === row.kind);
    return {
      chain: row.chain,
      position: Number(row.position),
      kind: kind ?? 'verdict',
      recordId: row.record_id,
      digest: row.digest,
      prevHash: row.prev_hash,
      // A kind Novarch never writes was put there by hand: the link then fails its hash check.
      hash: kind === undefined ? `unknown kind ${row.kind}` : row.hash,
      recordedAt: row.recorded_at,
    };
  });
}

/** A stored record, rebuilt as its link's material, with what orders it and whose it is. */
interface StoredRecord {
  material: AuditRecordMaterial;
  /** `seq` of the row, for records whose table order is part of the trail (verdicts, holds). */
  seq?: number;
  /** The chain the record belongs to now (its session's tenant, or its team). */
  chain: string;
}

/** The records the links name, as stored now, by `kind/recordId`. */
async function recordsOf(
  db: Kysely<StoreTables>,
  links: readonly AuditLink[],
): Promise<Map<string, StoredRecord>> {
  const found = new Map<string, StoredRecord>();
  const ids = (kind: AuditLinkKind) =>
    links.filter((link) => link.kind === kind).map((link) => link.recordId);
  const verdictIds = ids('verdict');
  if (verdictIds.length > 0) {
    const rows = await selectChainedVerdicts(db).where('verdicts.id', 'in', verdictIds).execute();
    const inTable = new Set(rows.map((row) => row.id));
    const missing = verdictIds.filter((id) => !inTable.has(id));
    // Duplicates migration 15 moved out of `verdicts` are still records of the trail.
    const setAside =
      missing.length === 0
        ? []
        : await selectSetAsideVerdicts(db).where('verdicts.id', 'in', missing).execute();
    for (const row of [...rows, ...setAside]) {
      found.set(`verdict/${row.id}`, {
        seq: Number(row.seq),
        chain: tenantChain(row.tenant_id),
        material: chainedVerdictMaterial(row),
      });
    }
  }
  const holdIds = [...new Set([...ids('hold'), ...ids('hold_decision')])];
  if (holdIds.length > 0) {
    const rows = await db
      .selectFrom('holds')
      .innerJoin('sessions', 'sessions.id', 'holds.session_id')
      .selectAll('holds')
      .select('sessions.tenant_id as tenant_id')
      .where('holds.id', 'in', holdIds)
      .execute();
    const holdDigests = new Map(
      links.filter((link) => link.kind === 'hold').map((link) => [link.recordId, link.digest]),
    );
    for (const row of rows) {
      const chain = tenantChain(row.tenant_id);
      const material = holdMaterialAsChained(row, holdDigests.get(row.id));
      found.set(`hold/${row.id}`, { seq: Number(row.seq), chain, material });
      found.set(`hold_decision/${row.id}`, { chain, material: holdDecisionMaterial(row) });
    }
  }
  const approvals = ids('hold_approval').flatMap((id) => {
    const parsed = parseHoldApprovalId(id);
    return parsed === undefined ? [] : [{ id, ...parsed }];
  });
  if (approvals.length > 0) {
    const rows = await selectApprovedHolds(db)
      .where('holds.id', 'in', [...new Set(approvals.map((approval) => approval.holdId))])
      .execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const approval of approvals) {
      const row = byId.get(approval.holdId);
      const material = row && holdApprovalMaterial(row, row, approval.number);
      if (row !== undefined && material !== undefined)
        found.set(`hold_approval/${approval.id}`, { chain: tenantChain(row.tenant_id), material });
    }
  }
  const killIds = ids('kill');
  if (killIds.length > 0) {
    const rows = await db.selectFrom('sessions').selectAll().where('id', 'in', killIds).execute();
    for (const row of rows)
      found.set(`kill/${row.id}`, { chain: tenantChain(row.tenant_id), material: killMaterial(row) });
  }
  const teams = [...new Set(ids('rule_change').map((id) => id.slice(0, id.lastIndexOf('@'))))];
  if (teams.length > 0) {
    const rows = await db.selectFrom('rule_sets').selectAll().where('team', 'in', teams).execute();
    for (const row of rows) {
      found.set(`rule_change/${ruleChangeId(row.team, row.version)}`, {
        seq: Number(row.seq),
        chain: rulesChain(row.team),
        material: ruleChangeMaterial(row),
      });
    }
  }
  return found;
}

/**
 * A hold's material in the form its link was written in: with its policy (`format: 2`), or, for a
 * link whose digest is of the form chained before that (`legacyHoldMaterial`), without. An edit
 * of a newer hold's policy matches neither, so it is reported as an edit.
 */
function holdMaterialAsChained(
  row: Parameters<typeof holdMaterial>[0],
  digest: string | undefined,
): AuditRecordMaterial {
  const current = holdMaterial(row);
  if (digest === undefined || auditRecordDigest(current) === digest) return current;
  const legacy = legacyHoldMaterial(row);
  return auditRecordDigest(legacy) === digest ? legacy : current;
}

/**
 * Checks one chain against the database: its links (order, hashes, the head row), every record a
 * link names (still there, unchanged, still this chain's, in the same order), and every record
 * the chain should name but does not (inserted behind the store's back). Reads by pages of links.
 */
export async function verifyAuditChain(db: Kysely<StoreTables>, chain: string): Promise<AuditChainReport> {
  const problems: AuditProblem[] = [];
  let start = { position: 0, hash: '0'.repeat(64) };
  let count = 0;
  const lastSeq = new Map<string, number>();
  const linkedIds = new Map<AuditLinkKind, Set<string>>();
  for (;;) {
    const links = await linksAfter(db, chain, start.position);
    if (links.length === 0) break;
    const checked = checkAuditLinks(chain, links, start);
    problems.push(...checked.problems);
    const records = await recordsOf(db, links);
    for (const link of links) {
      const ofKind = linkedIds.get(link.kind) ?? new Set<string>();
      ofKind.add(link.recordId);
      linkedIds.set(link.kind, ofKind);
      const where = { chain, position: link.position, recordId: link.recordId };
      const record = records.get(`${link.kind}/${link.recordId}`);
      const noun = link.kind.replace('_', ' ');
      // A decision whose hold is pending again lost its decision: deleted, as far as the trail goes.
      const undecided = record?.material.kind === 'hold_decision' && record.material.status === 'pending';
      if (record === undefined || undecided) {
        problems.push({
          kind: 'deleted_record',
          ...where,
          message: `The ${noun} ${link.recordId} (link ${link.position}) is no longer in the store: deleted.`,
        });
        continue;
      }
      if (record.chain !== chain) {
        problems.push({
          kind: 'edited_record',
          ...where,
          message: `The ${noun} ${link.recordId} (link ${link.position}) now belongs to ${record.chain}: its session or team was changed.`,
        });
      } else if (auditRecordDigest(record.material) !== link.digest) {
        problems.push({
          kind: 'edited_record',
          ...where,
          message: `The ${noun} ${link.recordId} (link ${link.position}) was edited after it was recorded: its content does not match the chain.`,
        });
      }
      if (record.seq !== undefined) {
        const previous = lastSeq.get(link.kind);
        if (previous !== undefined && record.seq < previous) {
          problems.push({
            kind: 'reordered_record',
            ...where,
            message: `The ${noun} ${link.recordId} (link ${link.position}) is stored before an earlier link's record: the records were reordered.`,
          });
        }
        lastSeq.set(link.kind, record.seq);
      }
    }
    count += links.length;
    start = checked.head;
  }
  const headRow = await db
    .selectFrom('audit_heads')
    .selectAll()
    .where('chain', '=', chain)
    .executeTakeFirst();
  const storedHead =
    headRow === undefined
      ? { position: 0, hash: '0'.repeat(64) }
      : { position: Number(headRow.position), hash: headRow.hash };
  if (storedHead.position !== start.position || storedHead.hash !== start.hash) {
    problems.push({
      kind: 'head_mismatch',
      chain,
      message: `The chain's head says position ${storedHead.position}, its links end at ${start.position}: links were removed from its end, or the head was changed.`,
    });
  }
  problems.push(...(await unchainedRecords(db, chain, linkedIds)));
  return { chain, links: count, head: { chain, ...start }, problems };
}

/** A chain's links and the records they name as stored now, oldest first (for an export). */
export async function readChainedRecords(db: Kysely<StoreTables>, chain: string): Promise<ChainedRecords> {
  const links: AuditLink[] = [];
  const records: (AuditRecordMaterial | undefined)[] = [];
  let after = 0;
  for (;;) {
    const page = await linksAfter(db, chain, after);
    if (page.length === 0) break;
    const stored = await recordsOf(db, page);
    for (const link of page) {
      links.push(link);
      records.push(stored.get(`${link.kind}/${link.recordId}`)?.material);
    }
    after = page.at(-1)?.position ?? after;
  }
  return { links, records };
}

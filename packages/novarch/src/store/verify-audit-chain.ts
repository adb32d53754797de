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
  holdApprovalId,
  holdApprovalMaterial,
  holdDecisionMaterial,
  holdMaterial,
  killMaterial,
  parseHoldApprovalId,
  ruleChangeId,
  ruleChangeMaterial,
  storedApprovals,
} from './audit-record-material.js';
import { chainedVerdictMaterial, selectChainedVerdicts } from './chained-verdict-rows.js';
import { selectApprovedHolds } from './hold-approval-links.js';
import type { StoreTables } from './store-tables.js';

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
    for (const row of rows) {
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
    for (const row of rows) {
      const chain = tenantChain(row.tenant_id);
      found.set(`hold/${row.id}`, { seq: Number(row.seq), chain, material: holdMaterial(row) });
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

/** Records of the chain that no link names: inserted into the database, not through Novarch. */
async function unchainedRecords(
  db: Kysely<StoreTables>,
  chain: string,
  linked: ReadonlyMap<AuditLinkKind, ReadonlySet<string>>,
): Promise<AuditProblem[]> {
  const problems: AuditProblem[] = [];
  const report = (kind: AuditLinkKind, recordId: string) => {
    if (linked.get(kind)?.has(recordId)) return;
    problems.push({
      kind: 'unchained_record',
      chain,
      recordId,
      message: `The ${kind.replace('_', ' ')} ${recordId} is in the store but in no link of the chain: inserted behind Novarch's back.`,
    });
  };
  if (chain.startsWith('rules:')) {
    const team = chain.slice('rules:'.length);
    const rows = await db
      .selectFrom('rule_sets')
      .select(['team', 'version'])
      .where('team', '=', team)
      .orderBy('seq')
      .execute();
    for (const row of rows) report('rule_change', ruleChangeId(row.team, row.version));
    return problems;
  }
  const tenantId = chain.slice('tenant:'.length);
  const sessions = (eb: Kysely<StoreTables>) =>
    eb.selectFrom('sessions').select('id').where('tenant_id', '=', tenantId);
  const verdicts = await db
    .selectFrom('verdicts')
    .select('id')
    .where('session_id', 'in', sessions(db))
    .orderBy('seq')
    .execute();
  for (const row of verdicts) report('verdict', row.id);
  const holds = await db
    .selectFrom('holds')
    .select(['id', 'status', 'approvals_json', 'edited_input_json', 'edited_by'])
    .where('session_id', 'in', sessions(db))
    .orderBy('seq')
    .execute();
  for (const row of holds) {
    report('hold', row.id);
    const count = storedApprovals(row.approvals_json).length;
    for (let number = 1; number <= count; number += 1)
      report('hold_approval', holdApprovalId(row.id, number));
    // An edit is made with the first approval, whose link covers it: one without any approval
    // was written behind Novarch's back (and would run, were the hold approved).
    if (count === 0 && (row.edited_input_json != null || row.edited_by != null))
      problems.push({
        kind: 'unchained_record',
        chain,
        recordId: row.id,
        message: `The hold ${row.id} has an edited input${row.edited_by == null ? '' : ` by ${row.edited_by}`} but no approval whose link covers it: inserted behind Novarch's back.`,
      });
    if (row.status !== 'pending') report('hold_decision', row.id);
  }
  const killed = await db
    .selectFrom('sessions')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('killed_at', 'is not', null)
    .orderBy('seq')
    .execute();
  for (const row of killed) report('kill', row.id);
  return problems;
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

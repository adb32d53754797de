import type { Kysely } from 'kysely';
import type { AuditLinkKind, AuditProblem } from '../model/audit-chain.js';
import { holdApprovalId, ruleChangeId, storedApprovals } from './audit-record-material.js';
import type { StoreTables } from './store-tables.js';

/** Records of the chain that no link names: inserted into the database, not through Novarch. */
export async function unchainedRecords(
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
  // Set aside by migration 15, still records: one no link names was never chained either.
  const setAside = await db
    .selectFrom('verdicts_set_aside')
    .select('id')
    .where('session_id', 'in', sessions(db))
    .orderBy('seq')
    .execute();
  for (const row of setAside) report('verdict', row.id);
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

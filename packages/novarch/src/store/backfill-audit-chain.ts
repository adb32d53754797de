import type { Kysely } from 'kysely';
import { rulesChain, tenantChain } from '../model/audit-chain.js';
import { type AuditAppend, appendAuditLink, lockAuditChain } from './audit-chain-queries.js';
import {
  holdDecisionMaterial,
  holdMaterial,
  killMaterial,
  ruleChangeId,
  ruleChangeMaterial,
} from './audit-record-material.js';
import { chainedVerdictMaterial, selectChainedVerdicts } from './chained-verdict-rows.js';
import type { StoreTables } from './store-tables.js';

/**
 * Chains the decisions stored before migration 11, so `verify` covers every record: per tenant,
 * its verdicts in store order, then its holds, their decisions, its kills; per team, its rule
 * versions. They are proven unchanged from the migration on (what happened to them before is not
 * known to any chain).
 */
export async function backfillAuditChain(db: Kysely<StoreTables>): Promise<void> {
  const appends = new Map<string, AuditAppend[]>();
  const add = (chain: string, append: AuditAppend) => {
    const list = appends.get(chain) ?? [];
    list.push(append);
    appends.set(chain, list);
  };
  const verdicts = await selectChainedVerdicts(db).orderBy('verdicts.seq', 'asc').execute();
  for (const row of verdicts) {
    add(tenantChain(row.tenant_id), {
      kind: 'verdict',
      recordId: row.id,
      material: chainedVerdictMaterial(row),
    });
  }
  const holds = await db
    .selectFrom('holds')
    .innerJoin('sessions', 'sessions.id', 'holds.session_id')
    .selectAll('holds')
    .select('sessions.tenant_id as tenant_id')
    .orderBy('holds.seq', 'asc')
    .execute();
  for (const row of holds)
    add(tenantChain(row.tenant_id), { kind: 'hold', recordId: row.id, material: holdMaterial(row) });
  for (const row of holds) {
    if (row.status === 'pending') continue;
    add(tenantChain(row.tenant_id), {
      kind: 'hold_decision',
      recordId: row.id,
      material: holdDecisionMaterial(row),
    });
  }
  const killed = await db
    .selectFrom('sessions')
    .selectAll()
    .where('killed_at', 'is not', null)
    .orderBy('seq', 'asc')
    .execute();
  for (const row of killed)
    add(tenantChain(row.tenant_id), { kind: 'kill', recordId: row.id, material: killMaterial(row) });
  const ruleSets = await db.selectFrom('rule_sets').selectAll().orderBy('seq', 'asc').execute();
  for (const row of ruleSets) {
    add(rulesChain(row.team), {
      kind: 'rule_change',
      recordId: ruleChangeId(row.team, row.version),
      material: ruleChangeMaterial(row),
    });
  }
  for (const [chain, list] of appends) {
    await lockAuditChain(db, chain);
    for (const append of list) await appendAuditLink(db, chain, append);
  }
}

import type { Kysely } from 'kysely';
import { rulesChain, tenantChain } from '../model/audit-chain.js';
import { type AuditAppend, appendAuditLink, lockAuditChain } from './audit-chain-queries.js';
import {
  holdDecisionMaterial,
  holdMaterial,
  killMaterial,
  ruleChangeId,
  ruleChangeMaterial,
  verdictMaterial,
} from './audit-record-material.js';
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
  const verdicts = await db
    .selectFrom('verdicts')
    .innerJoin('actions', 'actions.id', 'verdicts.action_id')
    .innerJoin('sessions', 'sessions.id', 'verdicts.session_id')
    .selectAll('verdicts')
    .select([
      'sessions.tenant_id as tenant_id',
      'actions.action_type as action_type',
      'actions.tool_name as tool_name',
      'actions.input_json as input_json',
      'actions.context_json as context_json',
      'actions.reasoning as reasoning',
      'actions.created_at as action_created_at',
      'actions.session_id as action_session_id',
    ])
    .orderBy('verdicts.seq', 'asc')
    .execute();
  for (const row of verdicts) {
    add(tenantChain(row.tenant_id), {
      kind: 'verdict',
      recordId: row.id,
      material: verdictMaterial(row, {
        id: row.action_id,
        session_id: row.action_session_id,
        action_type: row.action_type,
        tool_name: row.tool_name,
        input_json: row.input_json,
        context_json: row.context_json,
        reasoning: row.reasoning,
        created_at: row.action_created_at,
      }),
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

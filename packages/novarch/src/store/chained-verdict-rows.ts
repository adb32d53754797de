import type { Kysely } from 'kysely';
import { verdictMaterial } from './audit-record-material.js';
import type { StoreTables } from './store-tables.js';

/** What a verdict's link covers beside the verdict: its session's tenant and the action it judged. */
const JOINED_COLUMNS = [
  'sessions.tenant_id as tenant_id',
  'actions.session_id as action_session_id',
  'actions.action_type as action_type',
  'actions.tool_name as tool_name',
  'actions.input_json as input_json',
  'actions.context_json as context_json',
  'actions.reasoning as reasoning',
  'actions.created_at as action_created_at',
] as const;

/**
 * Verdicts joined to the action they judged and their session's tenant: what a verdict's audit
 * link covers. The backfill and `verify` read them the same way; callers add order or filter.
 */
export function selectChainedVerdicts(db: Kysely<StoreTables>) {
  return db
    .selectFrom('verdicts')
    .innerJoin('actions', 'actions.id', 'verdicts.action_id')
    .innerJoin('sessions', 'sessions.id', 'verdicts.session_id')
    .selectAll('verdicts')
    .select(JOINED_COLUMNS);
}

/**
 * Verdicts migration 15 set aside (later duplicates of an action's verdict of one kind), joined
 * as `selectChainedVerdicts` joins verdicts: their links still name them.
 */
export function selectSetAsideVerdicts(db: Kysely<StoreTables>) {
  return db
    .selectFrom('verdicts_set_aside as verdicts')
    .innerJoin('actions', 'actions.id', 'verdicts.action_id')
    .innerJoin('sessions', 'sessions.id', 'verdicts.session_id')
    .select([
      'verdicts.seq',
      'verdicts.id',
      'verdicts.action_id',
      'verdicts.session_id',
      'verdicts.kind',
      'verdicts.citations_json',
      'verdicts.source',
      'verdicts.decided_at',
      'verdicts.os_user',
    ])
    .select(JOINED_COLUMNS);
}

type ChainedVerdictRow = Omit<
  Awaited<ReturnType<ReturnType<typeof selectChainedVerdicts>['execute']>>[number],
  'seq'
>;

/** The material of a verdict's link, from a row of `selectChainedVerdicts`. */
export function chainedVerdictMaterial(row: ChainedVerdictRow) {
  return verdictMaterial(row, {
    id: row.action_id,
    session_id: row.action_session_id,
    action_type: row.action_type,
    tool_name: row.tool_name,
    input_json: row.input_json,
    context_json: row.context_json,
    reasoning: row.reasoning,
    created_at: row.action_created_at,
  });
}

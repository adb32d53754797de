import type { Kysely } from 'kysely';
import { z } from 'zod';
import { rulesChain } from '../model/audit-chain.js';
import { canonicalRulesContent, rulesContentHash } from '../model/rules-content-hash.js';
import type {
  RuleSetPush,
  RuleSetPushResult,
  StoredRuleSet,
  StoredRuleSetSummary,
} from '../model/stored-rule-set.js';
import { appendAuditLink, lockAuditChain } from './audit-chain-queries.js';
import { ruleChangeId, ruleChangeMaterial } from './audit-record-material.js';
import { NovarchStoreError } from './novarch-store-error.js';
import { parseWith, type RowOrigin } from './parse-record-rows.js';
import type { StoreTables } from './store-tables.js';

const ruleSetRowSchema = z.object({
  team: z.string().min(1),
  version: z.int().min(1),
  content: z.string().optional(),
  content_hash: z.string().regex(/^[0-9a-f]{64}$/),
  pushed_at: z.iso.datetime(),
  pushed_by: z.string(),
  pushed_by_os_user: z.string().nullish(),
});

function summaryOf(row: unknown, origin: RowOrigin): StoredRuleSetSummary & { content?: string } {
  const stored = parseWith(ruleSetRowSchema, row, 'rule set', origin);
  return {
    team: stored.team,
    version: stored.version,
    contentHash: stored.content_hash,
    pushedAt: stored.pushed_at,
    pushedBy: stored.pushed_by,
    ...(stored.pushed_by_os_user == null ? {} : { pushedByOsUser: stored.pushed_by_os_user }),
    ...(stored.content === undefined ? {} : { content: stored.content }),
  };
}

function parseRuleSetRow(row: unknown, origin: RowOrigin = 'stored'): StoredRuleSet {
  const { content, ...summary } = summaryOf(row, origin);
  if (content === undefined)
    throw new NovarchStoreError(`Stored rule set ${summary.team} v${summary.version} has no content.`);
  if (rulesContentHash(content) !== summary.contentHash) {
    // A hand edit of the row: verdicts citing this hash would cite other rules than they ran.
    throw new NovarchStoreError(
      `Stored rule set ${summary.team} v${summary.version} does not match its content hash; the store is damaged. Push the rules file again.`,
    );
  }
  const { pushedByOsUser, ...rest } = summary;
  return { ...rest, content, ...(pushedByOsUser === undefined ? {} : { pushedByOsUser }) };
}

function latest(db: Kysely<StoreTables>, team: string) {
  return db
    .selectFrom('rule_sets')
    .selectAll()
    .where('team', '=', team)
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** `NovarchStore.pushRuleSet`, run under the store's write lock by the caller. */
export async function pushRuleSet(
  locked: Kysely<StoreTables>,
  push: RuleSetPush,
  osUser: string,
): Promise<RuleSetPushResult> {
  const team = push.team.trim();
  if (team === '' || team !== push.team) {
    throw new NovarchStoreError(
      `A rule set's team must be a non-empty name without surrounding spaces; got ${JSON.stringify(push.team)}.`,
    );
  }
  if (push.pushedBy.trim() === '')
    throw new NovarchStoreError('A rule set push needs who pushed it (pushedBy).');
  const content = canonicalRulesContent(push.content);
  const contentHash = rulesContentHash(content);
  const previous = await latest(locked, team);
  if (previous !== undefined && previous.content_hash === contentHash) {
    return { ruleSet: parseRuleSetRow(previous), created: false };
  }
  const row = {
    team,
    version: (previous?.version ?? 0) + 1,
    content,
    content_hash: contentHash,
    pushed_at: new Date().toISOString(),
    pushed_by: push.pushedBy,
    pushed_by_os_user: osUser,
  };
  const ruleSet = parseRuleSetRow(row, 'new');
  const chain = rulesChain(team);
  await lockAuditChain(locked, chain);
  await locked.insertInto('rule_sets').values(row).execute();
  await appendAuditLink(locked, chain, {
    kind: 'rule_change',
    recordId: ruleChangeId(team, row.version),
    material: ruleChangeMaterial(row),
  });
  return { ruleSet, created: true };
}

/** `NovarchStore.getRuleSet`. */
export async function getRuleSet(
  db: Kysely<StoreTables>,
  team: string,
  version?: number,
): Promise<StoredRuleSet | undefined> {
  if (version !== undefined && (!Number.isSafeInteger(version) || version < 1)) {
    throw new NovarchStoreError(`A rule set version is a whole number ≥ 1; got ${version}.`);
  }
  const row =
    version === undefined
      ? await latest(db, team)
      : await db
          .selectFrom('rule_sets')
          .selectAll()
          .where('team', '=', team)
          .where('version', '=', version)
          .executeTakeFirst();
  return row === undefined ? undefined : parseRuleSetRow(row);
}

/** `NovarchStore.listRuleSets`. */
export async function listRuleSets(
  db: Kysely<StoreTables>,
  filter: { team?: string } = {},
): Promise<StoredRuleSetSummary[]> {
  const rows = await db
    .selectFrom('rule_sets')
    .select(['team', 'version', 'content_hash', 'pushed_at', 'pushed_by', 'pushed_by_os_user'])
    .$if(filter.team !== undefined, (query) => query.where('team', '=', filter.team ?? ''))
    .orderBy('seq', 'asc')
    .execute();
  // Sorted here, not by the database: SQLite and PostgreSQL collate text differently.
  return rows
    .map((row) => summaryOf(row, 'stored'))
    .sort((a, b) => (a.team < b.team ? -1 : a.team > b.team ? 1 : a.version - b.version));
}

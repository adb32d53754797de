import type { Kysely } from 'kysely';
import type { SlackMessageRef } from '../model/novarch-store.js';
import { NovarchStoreError } from './novarch-store-error.js';
import type { StoreTables } from './store-tables.js';

/**
 * Claims the posting of hold `holdId` to Slack: true for the one caller that inserts its row
 * (migration 16), false when another server (or this one, before a restart) already did.
 */
export async function claimSlackPost(db: Kysely<StoreTables>, holdId: string): Promise<boolean> {
  const result = await db
    .insertInto('slack_hold_messages')
    .values({ hold_id: holdId, messages_json: null, shown_rank: -1, claimed_at: new Date().toISOString() })
    .onConflict((conflict) => conflict.column('hold_id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

/** Records the messages the claiming server posted for a hold, and how far they show it. */
export async function recordSlackMessages(
  db: Kysely<StoreTables>,
  holdId: string,
  messages: readonly SlackMessageRef[],
  shownRank: number,
): Promise<void> {
  const result = await db
    .updateTable('slack_hold_messages')
    .set({ messages_json: JSON.stringify(messages), shown_rank: shownRank })
    .where('hold_id', '=', holdId)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1)
    throw new NovarchStoreError(`Hold ${holdId} has no claimed Slack post: its messages were not recorded.`);
}

/**
 * Claims the update of a hold's messages to a state of rank `rank`: its messages when they show
 * an earlier state (lower rank), for the one caller whose conditional update moves the rank;
 * undefined otherwise (not posted yet, nothing posted, or another caller updates them to this
 * state or a later one).
 */
export async function claimSlackUpdate(
  db: Kysely<StoreTables>,
  holdId: string,
  rank: number,
): Promise<SlackMessageRef[] | undefined> {
  const claimed = await db
    .updateTable('slack_hold_messages')
    .set({ shown_rank: rank })
    .where('hold_id', '=', holdId)
    .where('messages_json', 'is not', null)
    .where('shown_rank', '<', rank)
    .returning('messages_json')
    .executeTakeFirst();
  if (claimed?.messages_json == null) return undefined;
  return parseRefs(claimed.messages_json, holdId);
}

function parseRefs(json: string, holdId: string): SlackMessageRef[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed))
    throw new NovarchStoreError(
      `The stored Slack messages of hold ${holdId} are not a list: they were edited.`,
    );
  return parsed.flatMap((entry: unknown) =>
    typeof entry === 'object' &&
    entry !== null &&
    'channel' in entry &&
    'ts' in entry &&
    typeof entry.channel === 'string' &&
    typeof entry.ts === 'string'
      ? [{ channel: entry.channel, ts: entry.ts }]
      : [],
  );
}

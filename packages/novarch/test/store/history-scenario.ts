import { expect } from 'vitest';
import { type NovarchDatabaseStore, NovarchEngine, replayRules, storedRuleSource } from '../../src/index.js';
import { ruleSetOf } from './replay-scenario.js';

/**
 * cs-ops rules over history: at most 2 refunds per customer per day (tenant-wide, counting those
 * that ran), at most 1,000 refunded per agent per day, and a monitored (shadow) rule that would
 * hold a customer's second refund in the session.
 */
export const HISTORY_RULES = `team: cs-ops
action_types: [issue_refund, close_ticket]
rules:
  - id: LIMIT-1
    version: 1
    description: No more than 2 refunds per customer per day.
    applies_to: [issue_refund]
    on_violation: hold
    condition: "history.count('issue_refund', '24h', {'context.recordId': action.context.recordId, 'released': true}) < 2"
  - id: LIMIT-2
    version: 1
    description: An agent refunds at most 1000 a day.
    applies_to: [issue_refund]
    on_violation: kill
    condition: "history.agent.sum('issue_refund', 'context.amount', '24h', {'released': true}) + action.context.amount <= 1000"
  - id: SHADOW-1
    version: 1
    description: A second refund to one customer in a session is held.
    applies_to: [issue_refund]
    on_violation: hold
    mode: monitor
    condition: "!history.session.exists('issue_refund', '24h', {'context.recordId': action.context.recordId})"
`;

/**
 * Judges five refunds on `store` under HISTORY_RULES, pushed as stored rules, and checks each
 * verdict, the shadow outcomes, and that a replay of the same rules changes nothing (history is
 * read as of each recorded action). Returns the decisions.
 */
export async function checkHistoryScenario(store: NovarchDatabaseStore) {
  await store.pushRuleSet({ team: 'cs-ops', content: HISTORY_RULES, pushedBy: 'ana' });
  const engine = new NovarchEngine({ store, rules: storedRuleSource(store), holdWindowSeconds: 60 });
  const session = await engine.openSession({ tenantId: 'acme', teamId: 'cs-ops', agentId: 'cs-bot' });
  const refund = (customer: string, amount: number) =>
    engine.decide(
      session,
      {
        actionType: 'issue_refund',
        toolName: 'issue_refund',
        input: { customer_id: customer, amount },
        context: { recordId: customer, summary: `refund ${amount}`, amount },
      },
      { release: true },
    );
  const first = await refund('C1', 100);
  const second = await refund('C1', 100);
  const third = await refund('C1', 100);
  const other = await refund('C2', 600);
  const over = await refund('C3', 300);
  expect([first, second, third, other, over].map((decision) => decision.verdict.kind)).toEqual([
    'pass',
    'pass',
    'hold',
    'pass',
    'kill',
  ]);
  expect(third.verdict.citations.rationale).toContain(
    'LIMIT-1 v1 (hold): No more than 2 refunds per customer per day. (condition is false)',
  );
  expect(over.verdict.citations.ruleIds).toEqual(['LIMIT-2']);
  // The shadow rule decided nothing, but says what it would have: hold C1's 2nd and 3rd refunds.
  expect(first.verdict.citations.shadow).toEqual([
    { ruleId: 'SHADOW-1', version: 1, decision: 'pass', rationale: 'SHADOW-1 v1: condition is true' },
  ]);
  expect(second.verdict.citations.shadow?.map((outcome) => outcome.decision)).toEqual(['hold']);
  expect(third.verdict.citations.shadow?.map((outcome) => outcome.decision)).toEqual(['hold']);
  // Replay under the same rules re-reads history as of each action: nothing changes.
  const stored = await store.getRuleSet('cs-ops');
  if (stored === undefined) throw new Error('the rules were not pushed');
  const replay = await replayRules({ store, ruleSet: ruleSetOf(HISTORY_RULES) });
  expect({ judged: replay.judged, changed: replay.changed.length, unchanged: replay.unchanged }).toEqual({
    judged: 5,
    changed: 0,
    unchanged: 5,
  });
  return { first, second, third, other, over };
}

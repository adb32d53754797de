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

/**
 * cs-ops rules over past evidence: a refund needs a successful lookup of its customer in the
 * session in the last hour; two failed lookups of the customer by the agent need a human; and a
 * monitored rule over the balances the agent looked up.
 */
export const EVIDENCE_HISTORY_RULES = `team: cs-ops
action_types: [issue_refund]
rules:
  - id: LOOKUP-1
    version: 1
    description: Look the customer up before refunding.
    applies_to: [issue_refund]
    on_violation: hold
    condition: "history.session.evidence.exists('lookup_customer', '1h', {'input.customer_id': action.context.recordId, 'error': false})"
  - id: LOOKUP-2
    version: 1
    description: Two failed lookups of the customer need a human.
    applies_to: [issue_refund]
    on_violation: hold
    condition: "history.agent.evidence.count('lookup_customer', '24h', {'input.customer_id': action.context.recordId, 'error': true}) < 2"
  - id: LOOKUP-3
    version: 1
    description: At most 1000 in looked-up balances per agent a day.
    applies_to: [issue_refund]
    on_violation: hold
    mode: monitor
    condition: "history.agent.evidence.sum('lookup_customer', 'output.balance', '24h') <= 1000.0"
`;

/**
 * Judges refunds on `store` under EVIDENCE_HISTORY_RULES after lookups (evidence) of their
 * customers in two sessions of one agent, checks each verdict and shadow outcome, and that a
 * replay (history read as of each action) changes nothing, though more evidence came after.
 */
export async function checkEvidenceHistoryScenario(store: NovarchDatabaseStore) {
  await store.pushRuleSet({ team: 'cs-ops', content: EVIDENCE_HISTORY_RULES, pushedBy: 'ana' });
  const engine = new NovarchEngine({ store, rules: storedRuleSource(store), holdWindowSeconds: 60 });
  const scope = { tenantId: 'acme', teamId: 'cs-ops', agentId: 'cs-bot' };
  const session = await engine.openSession(scope);
  const elsewhere = await engine.openSession(scope);
  const lookup = async (sessionId: string, customer: string, isError: boolean, balance = 100) => {
    const at = new Date().toISOString();
    await store.recordEvidence({
      sessionId,
      toolName: 'lookup_customer',
      input: { customer_id: customer },
      output: isError ? { error: 'timeout' } : { customer_id: customer, balance },
      isError,
      startedAt: at,
      finishedAt: at,
    });
  };
  const refund = (customer: string) =>
    engine.decide(
      session,
      {
        actionType: 'issue_refund',
        toolName: 'issue_refund',
        input: { customer_id: customer, amount: 10 },
        context: { recordId: customer, summary: 'refund 10', amount: 10 },
      },
      { release: true },
    );
  await lookup(elsewhere.id, 'C1', true);
  await lookup(elsewhere.id, 'C1', true);
  await lookup(session.id, 'C2', false, 300);
  const lookedUp = await refund('C2');
  const notLookedUp = await refund('C3');
  await lookup(session.id, 'C1', false, 800);
  const failedBefore = await refund('C1');
  await lookup(session.id, 'C3', false, 5);
  expect([lookedUp, notLookedUp, failedBefore].map((decision) => decision.verdict.kind)).toEqual([
    'pass',
    'hold',
    'hold',
  ]);
  expect(notLookedUp.verdict.citations.ruleIds).toEqual(['LOOKUP-1']);
  expect(failedBefore.verdict.citations.ruleIds).toEqual(['LOOKUP-2']);
  // Lookups of 300 then 300 + 800: the monitored rule would have held the third refund only.
  expect(
    [lookedUp, notLookedUp, failedBefore].map((decision) => decision.verdict.citations.shadow?.[0]?.decision),
  ).toEqual(['pass', 'pass', 'hold']);
  const replay = await replayRules({ store, ruleSet: ruleSetOf(EVIDENCE_HISTORY_RULES) });
  expect({ judged: replay.judged, changed: replay.changed.length }).toEqual({ judged: 3, changed: 0 });
}

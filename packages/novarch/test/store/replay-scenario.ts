import {
  type NovarchDatabaseStore,
  NovarchEngine,
  type RuleSet,
  validateRulesSource,
} from '../../src/index.js';

/** The rules the recorded sessions were judged by: refunds over 500 hold; closing a ticket is an LLM rule. */
export const RULES_V1 = `team: cs-ops
action_types: [issue_refund, close_ticket]
rules:
  - id: TEAM-1
    version: 1
    description: A refund needs a prior lookup of the same customer.
    applies_to: [issue_refund]
    on_violation: kill
    condition: evidence.exists(e, e.tool == "lookup_customer" && e.input.customer_id == action.context.recordId)
  - id: TEAM-2
    version: 1
    description: Refunds over 500 are held for a human.
    applies_to: [issue_refund]
    on_violation: hold
    condition: action.context.amount <= 500
  - id: TEAM-3
    version: 1
    description: Never close a ticket the customer has not confirmed as solved.
    applies_to: [close_ticket]
    on_violation: hold
`;

/** The change under test: refunds over 200 hold (TEAM-2 v2). */
export const RULES_V2 = RULES_V1.replace(
  'version: 1\n    description: Refunds over 500',
  'version: 2\n    description: Refunds over 200',
)
  .replace('Refunds over 500 are held', 'Refunds over 200 are held')
  .replace('amount <= 500', 'amount <= 200');

/** A rule set from text, as a file would load. */
export function ruleSetOf(source: string, name = 'rules.yaml'): RuleSet {
  const validation = validateRulesSource(source, name);
  if (validation.ruleSet === undefined) throw new Error(JSON.stringify(validation.issues));
  return validation.ruleSet;
}

/**
 * Records a few judged sessions of team cs-ops under RULES_V1 on `store`: refunds of 120 (pass),
 * 300 (pass, would hold under V2), 900 (hold), one without a lookup (kill), a ticket closed (an LLM
 * rule: hold), and a call the gate refused (no judge verdict). Returns the ids tests look for.
 */
export async function recordReplayScenario(store: NovarchDatabaseStore) {
  const engine = new NovarchEngine({ store, rules: [ruleSetOf(RULES_V1)], holdWindowSeconds: 60 });
  const session = await engine.openSession({ tenantId: 'acme', teamId: 'cs-ops', agentId: 'cs-bot' });
  const at = () => new Date().toISOString();
  const started = at();
  await store.recordEvidence({
    sessionId: session.id,
    toolName: 'lookup_customer',
    input: { customer_id: 'C1' },
    output: { ok: true },
    isError: false,
    startedAt: started,
    finishedAt: at(),
  });
  const refund = (amount: number, customer = 'C1') =>
    engine.decide(session, {
      actionType: 'issue_refund',
      toolName: 'issue_refund',
      input: { customer_id: customer, amount },
      context: { recordId: customer, summary: `refund ${amount} EUR`, amount },
    });
  const small = await refund(120);
  const medium = await refund(300);
  const large = await refund(900);
  const other = await engine.openSession({ tenantId: 'acme', teamId: 'cs-ops', agentId: 'cs-bot' });
  const unlooked = await engine.decide(other, {
    actionType: 'issue_refund',
    toolName: 'issue_refund',
    input: { customer_id: 'C9', amount: 10 },
    context: { recordId: 'C9', summary: 'refund 10 EUR', amount: 10 },
  });
  const close = await engine.decide(session, {
    actionType: 'close_ticket',
    toolName: 'close_ticket',
    input: { ticket: 'T-1' },
    context: { recordId: 'T-1', summary: 'close T-1' },
  });
  await store.recordRefusal({
    sessionId: session.id,
    source: 'gate',
    call: {
      actionType: 'tool_call',
      toolName: 'Bash',
      input: { command: 'ls' },
      context: { recordId: 'Bash', summary: 'Bash' },
    },
    citations: { ruleIds: [], evidenceIds: [], rationale: 'unmapped tool' },
  });
  // A session of another team: never replayed under cs-ops rules.
  const billing = await store.createSession({ tenantId: 'acme', teamId: 'billing', agentId: 'b' }, 60);
  await store.recordAction({
    sessionId: billing.id,
    actionType: 'issue_refund',
    toolName: 'issue_refund',
    input: {},
    context: { recordId: 'B1', summary: 'b', amount: 999 },
  });
  return { session, other, small, medium, large, unlooked, close };
}

/**
 * A session of tenant globex in a team also named cs-ops, with one refund of `context`: the other
 * tenant that replay and calibration must keep apart from acme's sessions.
 */
export async function recordGlobexRefund(
  store: NovarchDatabaseStore,
  context: { recordId: string; summary: string; amount: number },
) {
  const session = await store.createSession({ tenantId: 'globex', teamId: 'cs-ops', agentId: 'g' }, 60);
  const action = await store.recordAction({
    sessionId: session.id,
    actionType: 'issue_refund',
    toolName: 'issue_refund',
    input: {},
    context,
  });
  return { session, action };
}

import {
  lastUserText,
  type RecordedRequest,
  reply,
  respond,
  startFakeAnthropic,
  systemPromptText,
  toolResults,
  toolUse,
} from '@holodeck/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGateWorld, type GateWorld, refund } from './support/gate-fixture.js';

// Issue 24: the CLI runs `Agent` calls as background tasks. The main turn's `result` made the gate
// forget the reads in flight, and a subagent's PostToolUse after it was never stored: a "no refund
// after a fraud flag" rule passed and the refund ran. A read that ran is evidence (or the write is
// refused as "evidence incomplete"), never nothing.

let fake: Awaited<ReturnType<typeof startFakeAnthropic>>;
let world: GateWorld;
beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterEach(async () => {
  await world?.close();
  fake.reset(); // how many requests the two loops made is the CLI's business
});
afterAll(() => fake.close());

const FRAUD = 'mcp__cs__check_fraud';
const REFUND = 'mcp__cs__issue_refund';

const NO_REFUND_AFTER_FRAUD_FLAG = `team: cs-ops
action_types: [issue_refund]
rules:
  - id: FRAUD-1
    version: 1
    description: No refund to a customer a fraud check flagged.
    applies_to: [issue_refund]
    on_violation: kill
    condition: "!evidence.exists(e, e.tool == '${FRAUD}' && e.input.customer_id == action.context.recordId)"
`;

const allText = (request: RecordedRequest) => JSON.stringify(request.body);

describe('a background subagent reads, then the main agent writes', () => {
  /**
   * The subagent's fraud check (2 s) is still running when the main turn ends: its PostToolUse
   * comes after the main `result`. Before: it was never stored, and the refund ran.
   */
  it('a read reported after the main turn ended is evidence: the refund is refused', async () => {
    world = await createGateWorld(5, { rulesYaml: NO_REFUND_AFTER_FRAUD_FLAG, fraudCheckMs: 2_000 });
    fake.script(...Array.from({ length: 12 }, () => route('after the notification')));
    await world.run(fake.url, { agents: AGENTS });
    expect(world.refunds).toEqual([]);
    const audit = await world.store.audit();
    expect(
      audit.map((entry) => [entry.action.toolName, entry.verdict?.source, entry.verdict?.verdict.kind]),
    ).toEqual([[REFUND, 'judge', 'kill']]);
    expect(audit[0]?.verdict?.verdict.citations.ruleIds).toEqual(['FRAUD-1']);
  }, 90_000);

  /** The main agent refunds while the subagent's check still runs: the write waits for that read. */
  it("a write while another agent's read runs waits for it: the refund is refused", async () => {
    world = await createGateWorld(5, { rulesYaml: NO_REFUND_AFTER_FRAUD_FLAG, fraudCheckMs: 1_500 });
    fake.script(...Array.from({ length: 12 }, () => route('at once')));
    await world.run(fake.url, { agents: AGENTS });
    expect(world.refunds).toEqual([]);
    const audit = await world.store.audit();
    expect(
      audit.map((entry) => [entry.action.toolName, entry.verdict?.source, entry.verdict?.verdict.kind]),
    ).toEqual([[REFUND, 'judge', 'kill']]);
  }, 90_000);
});

const AGENTS = {
  checker: { description: 'Checks for fraud', prompt: 'You check customers for fraud.', tools: [FRAUD] },
};

/**
 * The main agent starts the fraud check as a background task, then refunds C8: `at once` (while
 * the check runs) or `after the notification` the CLI sends when the task is done. The subagent
 * checks C8 for fraud.
 */
function route(refundWhen: 'at once' | 'after the notification') {
  return respond((request) => {
    const ids = toolResults(request).map((result) => result.toolUseId);
    if (systemPromptText(request).includes('You check customers for fraud.')) {
      if (ids.includes('f1')) return reply('C8 is flagged for fraud.');
      return toolUse(FRAUD, { customer_id: 'C8' }, { id: 'f1' });
    }
    if (ids.includes('r1')) return reply('done');
    // Late enough for the subagent to have started its check (a read not yet started is no evidence).
    if (ids.includes('a1') && refundWhen === 'at once')
      return toolUse(
        REFUND,
        { customer_id: 'C8', amount: 50, reasoning: 'asked' },
        { id: 'r1', delayMs: 700 },
      );
    // The task's notification comes back to the main loop as a user message.
    if (allText(request).includes('C8 is flagged for fraud.') || /task/i.test(lastUserText(request)))
      return refund('C8', 50, 'r1');
    if (ids.includes('a1')) return reply('The check runs in the background.');
    return toolUse(
      'Agent',
      { description: 'fraud check', prompt: 'check C8', subagent_type: 'checker', run_in_background: true },
      { id: 'a1' },
    );
  });
}

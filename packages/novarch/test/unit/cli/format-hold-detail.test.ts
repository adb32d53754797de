import { describe, expect, it } from 'vitest';
import { createStyle } from '../../../src/cli/terminal-style.js';
import * as holdDetail from '../../../src/format/format-hold-detail.js';
import {
  action,
  checkedInHold,
  deniedHold,
  evidence,
  killedSession,
  pendingHold,
  session,
  verdict,
} from './cli-fixtures.js';
import { printed } from './printed.js';

const formatHoldDetail = printed(holdDetail.formatHoldDetail);
const formatDecidedHold = printed(holdDetail.formatDecidedHold);

describe('formatHoldDetail', () => {
  it('shows the hold, session, action, verdict citations and the cited evidence', () => {
    expect(formatHoldDetail({ hold: pendingHold, session, action, verdict, citedEvidence: [evidence] })).toBe(
      `Hold hold_1
  status     pending
  created    2026-03-01T10:00:02.200Z
  deadline   2026-03-01T10:05:02.200Z

Session ses_1
  tenant     acme
  team       support
  agent      refund-bot
  started    2026-03-01T10:00:00.000Z

Action act_1
  type       refund
  tool       mcp__crm__refund
  record     (agent) c-7
  summary    (agent) Refund 900 € to c-7
  context    (agent) {"recordId":"c-7","summary":"Refund 900 € to c-7","amount":900}
  input      (agent) {"customerId":"c-7","amount":900}
  reasoning  (agent) charged twice
  (agent): written by the agent or built from its tool input, not by Novarch or an operator

Verdict hold (judge, 2026-03-01T10:00:02.100Z)
  rules      TEAM-2
  evidence   evd_1, evd_9 (not stored)
  rationale  over 500 is held

Cited evidence
  evd_1  mcp__crm__lookup_customer  2026-03-01T10:00:01.200Z
    input   (agent) {"customerId":"c-7"}
    output  (tool) {"name":"Ana Lima"}
`,
    );
  });

  it('shows the decision, a killed session, and what is missing from the store', () => {
    const text = formatHoldDetail({
      hold: { ...deniedHold, sessionId: 'ses_2' },
      session: killedSession,
      citedEvidence: [],
    });
    expect(text).toBe(`Hold hold_1
  status     denied
  created    2026-03-01T10:00:02.200Z
  deadline   2026-03-01T10:05:02.200Z
  decided    2026-03-01T10:01:00.000Z by bob
  rationale  not a double charge

Session ses_2
  tenant     acme
  team       support
  agent      notes-bot
  started    2026-03-01T10:00:00.000Z
  killed     2026-03-01T10:05:00.000Z: operator ana: deleting notes

Action act_1 (not stored)

Verdict none stored
`);
  });
});

describe('formatHoldDetail: is anything waiting on a pending hold?', () => {
  /** The hold section of `holds show` (up to the blank line before the session). */
  const holdSection = (detail: Parameters<typeof formatHoldDetail>[0]) =>
    formatHoldDetail(detail).split('\n\n')[0];

  it('waiting: who checks in, and that a decision reaches it', () => {
    expect(holdSection({ hold: checkedInHold, state: 'waiting', citedEvidence: [] })).toBe(`Hold hold_1
  status     pending (waiting)
  created    2026-03-01T10:00:02.200Z
  deadline   2026-03-01T10:05:02.200Z
  waiter     pid 4242 on agent-7, last check-in 2026-03-01T10:00:40.000Z
             An agent process waits on it (checking in every 2 s): a decision reaches it at once.`);
  });

  it('abandoned: since when no agent process checked in, and that approving runs nothing', () => {
    expect(holdSection({ hold: checkedInHold, state: 'abandoned', citedEvidence: [] })).toBe(`Hold hold_1
  status     pending (abandoned)
  created    2026-03-01T10:00:02.200Z
  deadline   2026-03-01T10:05:02.200Z
  waiter     pid 4242 on agent-7, last check-in 2026-03-01T10:00:40.000Z
             Nothing waits on it: no agent process has checked in on it since 2026-03-01T10:00:40.000Z (pid 4242 on agent-7); approving it will not run anything. If the write is still wanted, the agent must retry the action.`);
    expect(holdSection({ hold: pendingHold, state: 'abandoned', citedEvidence: [] })).toContain(
      `  waiter     no process has checked in
             Nothing waits on it: no agent process has checked in on it since it was created at 2026-03-01T10:00:02.200Z; approving`,
    );
  });

  it('expired: the deadline has passed, approving runs nothing', () => {
    expect(holdSection({ hold: checkedInHold, state: 'expired', citedEvidence: [] })).toBe(`Hold hold_1
  status     pending (expired)
  created    2026-03-01T10:00:02.200Z
  deadline   2026-03-01T10:05:02.200Z
  waiter     pid 4242 on agent-7, last check-in 2026-03-01T10:00:40.000Z
             Nothing waits on it: its deadline has passed; approving it will not run anything. If the write is still wanted, the agent must retry the action.`);
  });

  it('a decided hold keeps its last check-in and needs no explanation', () => {
    const decided = { ...deniedHold, waiter: checkedInHold.waiter };
    expect(holdSection({ hold: decided, citedEvidence: [] })).toBe(`Hold hold_1
  status     denied
  created    2026-03-01T10:00:02.200Z
  deadline   2026-03-01T10:05:02.200Z
  waiter     pid 4242 on agent-7, last check-in 2026-03-01T10:00:40.000Z
  decided    2026-03-01T10:01:00.000Z by bob
  rationale  not a double charge`);
  });
});

describe('formatHoldDetail on a colour terminal', () => {
  /** Before styled lines, the status was painted and then neutralised: `\x1b[31mdenied…` literally. */
  it('colours the status and verdict without escaping its own colour codes', () => {
    const colours = createStyle({ isTTY: true }, {});
    const text = formatHoldDetail({ hold: deniedHold, verdict, citedEvidence: [] }, colours);
    expect(text).toContain('  status     \u001b[31mdenied\u001b[39m\n');
    expect(text).toContain('\u001b[1mHold\u001b[22m hold_1\n');
    expect(text).not.toContain('\\x1b');
  });
});

describe('formatDecidedHold', () => {
  it('says who decided and what the gate does with it', () => {
    expect(formatDecidedHold({ hold: deniedHold })).toBe(
      'Hold hold_1 denied by bob: not a double charge\n' +
        'The gate refuses the write with this rationale; the agent continues.\n',
    );
    const skipped = { ...deniedHold, status: 'skipped' as const, rationale: undefined };
    expect(formatDecidedHold({ hold: skipped })).toBe(
      'Hold hold_1 skipped by bob\nThe gate refuses the write and latches the session (fail-closed).\n',
    );
  });

  it('says plainly that nothing runs a hold closed with --force', () => {
    const closed = {
      ...deniedHold,
      status: 'timed_out' as const,
      decidedBy: 'ana',
      rationale: 'Closed with novarch holds approve --force: …, so the write did not run.',
    };
    expect(formatDecidedHold({ hold: closed, forced: 'abandoned' })).toBe(
      'Hold hold_1 timed_out by ana: Closed with novarch holds approve --force: …, so the write did not run.\n' +
        'Nothing runs this write: no agent was waiting for the decision. ' +
        'If the write is still wanted, the agent must retry the action.\n',
    );
  });
});

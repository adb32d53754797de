import { describe, expect, it } from 'vitest';
import { formatDecidedHold, formatHoldDetail } from '../../../src/cli/format/format-hold-detail.js';
import {
  action,
  deniedHold,
  evidence,
  killedSession,
  pendingHold,
  session,
  verdict,
} from './cli-fixtures.js';

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
  record     c-7
  summary    Refund 900 € to c-7
  context    {"recordId":"c-7","summary":"Refund 900 € to c-7","amount":900}
  input      {"customerId":"c-7","amount":900}
  reasoning  charged twice

Verdict hold (judge, 2026-03-01T10:00:02.100Z)
  rules      TEAM-2
  evidence   evd_1, evd_9 (not stored)
  rationale  over 500 is held

Cited evidence
  evd_1  mcp__crm__lookup_customer  2026-03-01T10:00:01.200Z
    input   {"customerId":"c-7"}
    output  {"name":"Ana Lima"}
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

describe('formatDecidedHold', () => {
  it('says who decided and what the gate does with it', () => {
    expect(formatDecidedHold(deniedHold)).toBe(
      'Hold hold_1 denied by bob: not a double charge\n' +
        'The gate refuses the write with this rationale; the agent continues.\n',
    );
    const skipped = { ...deniedHold, status: 'skipped' as const, rationale: undefined };
    expect(formatDecidedHold(skipped)).toBe(
      'Hold hold_1 skipped by bob\nThe gate refuses the write and latches the session (fail-closed).\n',
    );
  });
});

import type {
  ActionRecord,
  AuditEntry,
  EvidenceRecord,
  HoldRecord,
  SessionRecord,
  VerdictRecord,
} from '../../../src/index.js';

// Fixed records for the formatter tests: short ids and fixed times keep the expected text readable.

export const session: SessionRecord = {
  id: 'ses_1',
  tenantId: 'acme',
  teamId: 'support',
  agentId: 'refund-bot',
  startedAt: '2026-03-01T10:00:00.000Z',
  holdWaitSeconds: 300,
};

export const killedSession: SessionRecord = {
  ...session,
  id: 'ses_2',
  agentId: 'notes-bot',
  killedAt: '2026-03-01T10:05:00.000Z',
  killReason: 'operator ana: deleting notes',
};

export const evidence: EvidenceRecord = {
  id: 'evd_1',
  sessionId: 'ses_1',
  toolName: 'mcp__crm__lookup_customer',
  input: { customerId: 'c-7' },
  output: { name: 'Ana Lima' },
  isError: false,
  startedAt: '2026-03-01T10:00:01.000Z',
  finishedAt: '2026-03-01T10:00:01.200Z',
};

export const action: ActionRecord = {
  id: 'act_1',
  sessionId: 'ses_1',
  actionType: 'refund',
  toolName: 'mcp__crm__refund',
  input: { customerId: 'c-7', amount: 900 },
  context: { recordId: 'c-7', summary: 'Refund 900 € to c-7', amount: 900 },
  reasoning: 'charged twice',
  createdAt: '2026-03-01T10:00:02.000Z',
};

export const verdict: VerdictRecord = {
  id: 'vrd_1',
  actionId: 'act_1',
  sessionId: 'ses_1',
  verdict: {
    kind: 'hold',
    citations: { ruleIds: ['TEAM-2'], evidenceIds: ['evd_1', 'evd_9'], rationale: 'over 500 is held' },
  },
  decidedAt: '2026-03-01T10:00:02.100Z',
  source: 'judge',
};

export const pendingHold: HoldRecord = {
  schemaVersion: 1,
  id: 'hold_1',
  actionId: 'act_1',
  sessionId: 'ses_1',
  status: 'pending',
  createdAt: '2026-03-01T10:00:02.200Z',
  deadline: '2026-03-01T10:05:02.200Z',
};

/** The pending hold after its agent process (pid 4242 on agent-7) checked in. */
export const checkedInHold: HoldRecord = {
  ...pendingHold,
  waiter: { seenAt: '2026-03-01T10:00:40.000Z', pid: 4242, host: 'agent-7' },
};

export const deniedHold: HoldRecord = {
  ...pendingHold,
  status: 'denied',
  decidedAt: '2026-03-01T10:01:00.000Z',
  decidedBy: 'bob',
  rationale: 'not a double charge',
};

export const auditEntry: AuditEntry = { action, session, verdict, verdicts: [verdict], hold: pendingHold };

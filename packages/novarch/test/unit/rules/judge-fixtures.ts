import path from 'node:path';
import type { ActionRecord, EvidenceRecord, SessionScope } from '../../../src/index.js';
import type { JudgedAction } from '../../../src/rules/build-cel-activation.js';
import type { Rule, RuleSet } from '../../../src/rules/rule-set.js';

/** The cs-ops rules file used throughout the judge tests. */
export const CS_OPS_RULES = path.join(import.meta.dirname, '../../fixtures/rules/cs-ops.rules.yaml');

export const session: SessionScope = { tenantId: 'acme', teamId: 'cs-ops', agentId: 'refund-bot' };

/** A refund action for `recordId` (the customer) of `amount`. */
export function refund(recordId: string, amount?: number): JudgedAction {
  return {
    actionType: 'issue_refund',
    toolName: 'mcp__cs__issue_refund',
    input: { customer_id: recordId, amount, reasoning: 'the parcel never arrived' },
    context: { recordId, summary: `refund ${recordId}`, ...(amount === undefined ? {} : { amount }) },
    reasoning: 'the parcel never arrived',
  } satisfies Omit<ActionRecord, 'id' | 'sessionId' | 'createdAt'>;
}

/** A recorded read of `tool` with `input`. */
export function read(
  id: string,
  tool: string,
  input: unknown,
  output: unknown = { ok: true },
): EvidenceRecord {
  return {
    id,
    sessionId: 'session-1',
    toolName: tool,
    input,
    output,
    isError: false,
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:00.010Z',
  };
}

export const lookup = (id: string, customerId: string) =>
  read(id, 'mcp__cs__lookup_customer', { customer_id: customerId }, { name: 'Ada', tier: 'gold' });

/** A rule with defaults, for rule sets built in code. */
export function rule(fields: Partial<Rule> & Pick<Rule, 'id'>): Rule {
  return {
    version: 1,
    description: `rule ${fields.id}`,
    appliesTo: ['issue_refund'],
    onViolation: 'hold',
    ...fields,
  };
}

/** A cs-ops rule set from rules built in code. */
export function ruleSet(rules: Rule[], actionTypes = ['issue_refund', 'close_ticket']): RuleSet {
  return { team: 'cs-ops', actionTypes, rules };
}

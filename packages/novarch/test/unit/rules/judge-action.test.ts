import { beforeAll, describe, expect, it, vi } from 'vitest';
import { judgeAction } from '../../../src/rules/judge-action.js';
import type { LlmJudgeRequest, LlmRuleVerdict } from '../../../src/rules/llm/llm-judge.js';
import { loadRulesFile } from '../../../src/rules/load-rules-file.js';
import type { RuleSet } from '../../../src/rules/rule-set.js';
import { CS_OPS_RULES, lookup, read, refund, session } from './judge-fixtures.js';

let csOps: RuleSet;
beforeAll(async () => {
  csOps = await loadRulesFile(CS_OPS_RULES);
});

/** An LLM judge that finds every rule it is asked about satisfied. */
function approvingJudge() {
  const judge = vi.fn(
    async ({ rules }: LlmJudgeRequest): Promise<LlmRuleVerdict[]> =>
      rules.map((asked) => ({ ruleId: asked.id, violated: false, rationale: 'no promise made' })),
  );
  return { judge };
}

const NO_JUDGE = 'TEAM-3 v1 (hold): no condition and no LLM judge configured; an operator decides';

describe('judgeAction with the cs-ops rules', () => {
  it('passes a refund after a lookup of the same customer, citing every applied rule and the evidence', async () => {
    const llmJudge = approvingJudge();
    const evidence = [read('ev-1', 'mcp__cs__list_tickets', {}), lookup('ev-2', 'cust-7')];
    const verdict = await judgeAction({
      action: refund('cust-7', 120),
      evidence,
      session,
      rules: [csOps],
      llmJudge,
    });
    expect(verdict).toEqual({
      kind: 'pass',
      citations: {
        ruleIds: ['TEAM-1', 'TEAM-2', 'TEAM-3'],
        evidenceIds: ['ev-1', 'ev-2'],
        rationale: 'all 3 rules for issue_refund satisfied (TEAM-1, TEAM-2, TEAM-3)',
      },
    });
    expect(llmJudge.judge).toHaveBeenCalledOnce();
    expect(llmJudge.judge.mock.calls[0]?.[0].rules.map((asked) => asked.id)).toEqual(['TEAM-3']);
  });

  it('kills a refund without a prior lookup, and does not ask the LLM judge', async () => {
    const llmJudge = approvingJudge();
    const evidence = [read('ev-1', 'mcp__cs__list_tickets', {})];
    const verdict = await judgeAction({
      action: refund('cust-7', 120),
      evidence,
      session,
      rules: [csOps],
      llmJudge,
    });
    expect(verdict).toEqual({
      kind: 'kill',
      citations: {
        ruleIds: ['TEAM-1'],
        evidenceIds: ['ev-1'],
        rationale:
          'TEAM-1 v2 (kill): A refund needs a prior lookup of the same customer. (condition is false)',
      },
    });
    expect(llmJudge.judge).not.toHaveBeenCalled();
  });

  it('kills a refund when the lookup was of another customer', async () => {
    const verdict = await judgeAction({
      action: refund('cust-7', 120),
      evidence: [lookup('ev-1', 'cust-8')],
      session,
      rules: [csOps],
      llmJudge: approvingJudge(),
    });
    expect(verdict.kind).toBe('kill');
    expect(verdict.citations.ruleIds).toEqual(['TEAM-1']);
  });

  it('holds a refund over 500, citing only the rule it broke', async () => {
    const verdict = await judgeAction({
      action: refund('cust-7', 501),
      evidence: [lookup('ev-1', 'cust-7')],
      session,
      rules: [csOps],
      llmJudge: approvingJudge(),
    });
    expect(verdict).toEqual({
      kind: 'hold',
      citations: {
        ruleIds: ['TEAM-2'],
        evidenceIds: [],
        rationale:
          'TEAM-2 v1 (hold): Refunds over 500 are held for a human. (condition is false: action.context.amount is 501, not <= 500)',
      },
    });
  });

  it('kills when one rule kills and another holds, citing both (kills first)', async () => {
    const verdict = await judgeAction({
      action: refund('cust-7', 900),
      evidence: [],
      session,
      rules: [csOps],
    });
    expect(verdict).toEqual({
      kind: 'kill',
      citations: {
        ruleIds: ['TEAM-1', 'TEAM-2'],
        evidenceIds: [],
        rationale:
          'TEAM-1 v2 (kill): A refund needs a prior lookup of the same customer. (condition is false); TEAM-2 v1 (hold): Refunds over 500 are held for a human. (condition is false: action.context.amount is 900, not <= 500)',
      },
    });
  });

  it('holds a rule without a condition when no LLM judge is configured', async () => {
    const verdict = await judgeAction({
      action: refund('cust-7', 20),
      evidence: [lookup('ev-1', 'cust-7')],
      session,
      rules: [csOps],
    });
    expect(verdict).toEqual({
      kind: 'hold',
      citations: { ruleIds: ['TEAM-3'], evidenceIds: [], rationale: NO_JUDGE },
    });
  });

  it('counts a condition that fails at run time as violated, naming the error', async () => {
    const verdict = await judgeAction({
      action: refund('cust-7'), // no amount in the context
      evidence: [lookup('ev-1', 'cust-7')],
      session,
      rules: [csOps],
      llmJudge: approvingJudge(),
    });
    expect(verdict).toEqual({
      kind: 'hold',
      citations: {
        ruleIds: ['TEAM-2'],
        evidenceIds: [],
        rationale:
          'TEAM-2 v1 (hold): condition could not be evaluated (No such key: amount); counted as violated',
      },
    });
  });

  it('kills an action type no rules file of the team declares', async () => {
    const action = { ...refund('cust-7', 10), actionType: 'delete_customer' };
    const verdict = await judgeAction({
      action,
      evidence: [],
      session,
      rules: [csOps],
      llmJudge: approvingJudge(),
    });
    expect(verdict).toEqual({
      kind: 'kill',
      citations: {
        ruleIds: [],
        evidenceIds: [],
        rationale:
          'unknown action type "delete_customer": the rules of team "cs-ops" declare "issue_refund", "close_ticket"',
      },
    });
  });

  it('kills when no rules file belongs to the session team', async () => {
    const verdict = await judgeAction({
      action: refund('cust-7', 10),
      evidence: [],
      session: { ...session, teamId: 'billing' },
      rules: [csOps],
    });
    expect(verdict).toEqual({
      kind: 'kill',
      citations: {
        ruleIds: [],
        evidenceIds: [],
        rationale: 'no rules file for team "billing" (loaded teams: "cs-ops")',
      },
    });
  });

  it('passes a declared action type that no rule applies to', async () => {
    const action = { ...refund('cust-7'), actionType: 'close_ticket' };
    const verdict = await judgeAction({ action, evidence: [], session, rules: [csOps] });
    expect(verdict).toEqual({
      kind: 'pass',
      citations: {
        ruleIds: [],
        evidenceIds: [],
        rationale: 'no rule of team "cs-ops" applies to action type "close_ticket"',
      },
    });
  });
});

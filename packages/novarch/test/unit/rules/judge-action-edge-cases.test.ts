import { describe, expect, it } from 'vitest';
import { judgeAction } from '../../../src/rules/judge-action.js';
import type { LlmJudge } from '../../../src/rules/llm/llm-judge.js';
import type { RuleSet } from '../../../src/rules/rule-set.js';
import { lookup, refund, rule, ruleSet, session } from './judge-fixtures.js';

describe('judgeAction with rules built in code', () => {
  const judgeWith = (rules: RuleSet, llmJudge?: LlmJudge) =>
    judgeAction({
      action: refund('cust-7', 50),
      evidence: [lookup('ev-1', 'cust-7')],
      session,
      rules: [rules],
      ...(llmJudge ? { llmJudge } : {}),
    });

  it.each([
    [
      'a non-boolean result',
      'action.context.summary',
      'condition gave the string "refund cust-7", not a boolean; counted as violated',
    ],
    [
      'a syntax error',
      'action.context.amount <=',
      'condition is invalid (Unexpected token: EOF); counted as violated',
    ],
    [
      'an unknown variable',
      'amount < 5',
      'condition is invalid (Unknown variable: amount); counted as violated',
    ],
    [
      'a division by zero',
      'int(action.context.amount) / 0 == 1',
      'condition could not be evaluated (division by zero); counted as violated',
    ],
  ])('counts %s as a violation with the rule effect', async (_name, condition, reason) => {
    const verdict = await judgeWith(ruleSet([rule({ id: 'R-1', onViolation: 'kill', condition })]));
    expect(verdict).toEqual({
      kind: 'kill',
      citations: { ruleIds: ['R-1'], evidenceIds: [], rationale: `R-1 v1 (kill): ${reason}` },
    });
  });

  it('gives conditions the session and the whole action', async () => {
    const conditions = [
      'session.team_id == "cs-ops" && session.tenant_id == "acme" && session.agent_id == "refund-bot"',
      'action.type == "issue_refund" && action.tool == "mcp__cs__issue_refund"',
      'action.input.customer_id == "cust-7" && action.reasoning.contains("parcel")',
      'evidence.all(e, !e.is_error) && evidence[0].output.tier == "gold" && evidence[0].id == "ev-1"',
    ];
    const rules = ruleSet(conditions.map((condition, index) => rule({ id: `R-${index}`, condition })));
    const verdict = await judgeWith(rules);
    expect(verdict).toEqual({
      kind: 'pass',
      citations: {
        ruleIds: ['R-0', 'R-1', 'R-2', 'R-3'],
        evidenceIds: ['ev-1'],
        rationale: 'all 4 rules for issue_refund satisfied (R-0, R-1, R-2, R-3)',
      },
    });
  });

  it('counts an action that cannot be read as a violation', async () => {
    const input: Record<string, unknown> = {};
    input.self = input;
    const verdict = await judgeAction({
      action: { ...refund('cust-7', 5), input },
      evidence: [],
      session,
      rules: [ruleSet([rule({ id: 'R-1', condition: 'true' })])],
    });
    expect(verdict.kind).toBe('hold');
    expect(verdict.citations.rationale).toMatch(
      /^R-1 v1 \(hold\): the action or evidence cannot be read \(Converting circular structure to JSON/,
    );
  });

  describe('rules without a condition and a stub LLM judge', () => {
    const llmRule = (onViolation: 'kill' | 'hold') =>
      ruleSet([
        rule({ id: 'R-1', condition: 'true' }),
        rule({ id: 'R-2', onViolation, description: 'Be polite.' }),
      ]);

    it('takes the rule effect when the judge finds a violation, citing all evidence', async () => {
      const llmJudge: LlmJudge = {
        judge: async () => [{ ruleId: 'R-2', violated: true, rationale: 'the agent was rude' }],
      };
      expect(await judgeWith(llmRule('kill'), llmJudge)).toEqual({
        kind: 'kill',
        citations: {
          ruleIds: ['R-2'],
          evidenceIds: ['ev-1'],
          rationale: 'R-2 v1 (kill): Be polite. (LLM judge: the agent was rude)',
        },
      });
    });

    it.each([
      [
        'could not decide',
        async () => [{ ruleId: 'R-2', violated: true, undecided: true, rationale: 'HTTP 500' }],
        'the LLM judge could not decide (HTTP 500)',
      ],
      [
        'throws',
        async () => Promise.reject(new Error('socket hang up')),
        'the LLM judge failed (socket hang up)',
      ],
      [
        'answers malformed data',
        async () => [{ ruleId: 'R-2', violated: 'no' }],
        'the LLM judge returned a malformed answer',
      ],
      [
        'leaves the rule out',
        async () => [{ ruleId: 'R-9', violated: false, rationale: 'fine' }],
        'the LLM judge gave no verdict for this rule',
      ],
    ])('holds a kill rule when the judge %s', async (_name, answer, reason) => {
      const llmJudge = { judge: answer } as LlmJudge;
      expect(await judgeWith(llmRule('kill'), llmJudge)).toEqual({
        kind: 'hold',
        citations: { ruleIds: ['R-2'], evidenceIds: ['ev-1'], rationale: `R-2 v1 (hold): ${reason}` },
      });
    });
  });
});

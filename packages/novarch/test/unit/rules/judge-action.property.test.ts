import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Verdict } from '../../../src/index.js';
import { judgeAction } from '../../../src/rules/judge-action.js';
import type { LlmJudge, LlmRuleVerdict } from '../../../src/rules/llm/llm-judge.js';
import type { Rule } from '../../../src/rules/rule-set.js';
import { lookup, refund, rule, ruleSet, session } from './judge-fixtures.js';

// Conditions by how they come out on a refund of 100 after one lookup.
const CONDITIONS = {
  true: ['true', 'action.context.amount <= 500', 'evidence.exists(e, e.tool == "mcp__cs__lookup_customer")'],
  false: ['false', 'action.context.amount > 1000', 'evidence.exists(e, e.tool == "nope")'],
  error: ['action.context.missing == 1', 'int(action.context.amount) / 0 == 1', 'evidence[5].id == "x"'],
  notBoolean: ['action.context.summary', 'action.context.amount'],
  invalid: ['action.context.amount <=', 'acton.type == "x"', '1 + 2'],
} as const;
type ConditionKind = keyof typeof CONDITIONS | 'none';
type LlmAnswer = 'approve' | 'violate' | 'undecided' | 'omit';

const ruleArbitrary = fc.record({
  kind: fc.constantFrom<ConditionKind>('true', 'false', 'error', 'notBoolean', 'invalid', 'none'),
  pick: fc.nat(),
  onViolation: fc.constantFrom<'kill' | 'hold'>('kill', 'hold'),
  applies: fc.boolean(),
  llmAnswer: fc.constantFrom<LlmAnswer>('approve', 'violate', 'undecided', 'omit'),
});
type GeneratedRule = typeof ruleArbitrary extends fc.Arbitrary<infer T> ? T : never;

const scenario = fc.record({
  rules: fc.array(ruleArbitrary, { minLength: 0, maxLength: 6 }),
  llm: fc.constantFrom('absent', 'answers', 'throws', 'malformed'),
  declaredType: fc.boolean(),
  sameTeam: fc.boolean(),
});

function buildRule(generated: GeneratedRule, index: number): Rule {
  const options = generated.kind === 'none' ? [] : CONDITIONS[generated.kind];
  const condition = options[generated.pick % Math.max(options.length, 1)];
  return rule({
    id: `R-${index}`,
    onViolation: generated.onViolation,
    appliesTo: generated.applies ? ['issue_refund'] : ['close_ticket'],
    ...(condition === undefined ? {} : { condition }),
  });
}

function buildLlmJudge(mode: string, generated: readonly GeneratedRule[]): LlmJudge | undefined {
  if (mode === 'absent') return undefined;
  return {
    async judge({ rules }) {
      if (mode === 'throws') throw new Error('boom');
      if (mode === 'malformed') return [{ ruleId: 'R-0', violated: 'maybe' }] as unknown as LlmRuleVerdict[];
      return rules.flatMap((asked) => {
        const answer = generated[Number(asked.id.slice(2))]?.llmAnswer ?? 'omit';
        if (answer === 'omit') return [];
        return [
          {
            ruleId: asked.id,
            violated: answer !== 'approve',
            rationale: answer,
            ...(answer === 'undecided' ? { undecided: true } : {}),
          },
        ];
      });
    },
  };
}

/** What each applicable rule should come to, from how it was generated. */
function expectedDecision(generated: GeneratedRule, llm: string): 'pass' | 'kill' | 'hold' {
  if (generated.kind === 'true') return 'pass';
  if (generated.kind !== 'none') return generated.onViolation;
  if (llm !== 'answers') return 'hold';
  if (generated.llmAnswer === 'approve') return 'pass';
  return generated.llmAnswer === 'violate' ? generated.onViolation : 'hold';
}

describe('judgeAction (property)', () => {
  it('never passes when an applicable rule failed or errored, and combines outcomes exactly', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ rules: generated, llm, declaredType, sameTeam }) => {
        const rules = ruleSet(
          generated.map(buildRule),
          declaredType ? ['issue_refund', 'close_ticket'] : ['close_ticket'],
        );
        const llmJudge = buildLlmJudge(llm, generated);
        const verdict: Verdict = await judgeAction({
          action: refund('cust-7', 100),
          evidence: [lookup('ev-1', 'cust-7')],
          session: sameTeam ? session : { ...session, teamId: 'other-team' },
          rules: [rules],
          ...(llmJudge ? { llmJudge } : {}),
        });
        const applicable = generated.flatMap((entry, index) =>
          entry.applies ? [{ entry, id: `R-${index}` }] : [],
        );
        const decisions = applicable.map(({ entry, id }) => ({ id, decision: expectedDecision(entry, llm) }));
        const failed = decisions.filter(({ decision }) => decision !== 'pass');

        if (!sameTeam || !declaredType) {
          expect(verdict.kind).toBe('kill');
          return;
        }
        if (failed.length > 0) expect(verdict.kind).not.toBe('pass');
        const expected = failed.some(({ decision }) => decision === 'kill')
          ? 'kill'
          : failed.length > 0
            ? 'hold'
            : 'pass';
        expect(verdict.kind).toBe(expected);
        if (verdict.kind === 'pass') {
          expect(verdict.citations.ruleIds).toEqual(applicable.map(({ id }) => id));
        } else {
          // A refusal cites only rules that failed, and at least one of them.
          expect(verdict.citations.ruleIds.length).toBeGreaterThan(0);
          for (const id of verdict.citations.ruleIds) expect(failed.map((entry) => entry.id)).toContain(id);
        }
        expect(verdict.citations.rationale.length).toBeGreaterThan(0);
      }),
      { numRuns: 400 },
    );
  });
});

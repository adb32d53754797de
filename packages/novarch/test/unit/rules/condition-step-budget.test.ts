import { describe, expect, it } from 'vitest';
import { CONDITION_STEP_BUDGET, estimateConditionSteps } from '../../../src/rules/estimate-condition-cost.js';
import { judgeAction } from '../../../src/rules/judge-action.js';
import { lookup, read, refund, rule, ruleSet, session } from './judge-fixtures.js';

// A condition's work is bounded by a count of steps computed before it runs, not by a clock: the
// adversarial rules found from outside (a 2-level rule over 2,000 evidence rows blocked the event
// loop 4.8 s; a 4-level one 5.7 s at 60 rows) are refused at once, on any machine, under any load.

const TWO_LEVEL = 'evidence.all(e, evidence.all(f, e.id == f.id || e.tool != "" ))';
const FOUR_LEVEL =
  'evidence.all(a, evidence.all(b, evidence.all(c, evidence.all(d, a.id != "" && b.id != "" && c.id != "" && d.id != ""))))';

function lookups(count: number) {
  return Array.from({ length: count }, (_, index) => lookup(`evd_${index}`, 'C1'));
}

async function judge(condition: string, evidenceCount: number) {
  const started = performance.now();
  const verdict = await judgeAction({
    rules: [ruleSet([rule({ id: 'HEAVY-1', condition, onViolation: 'kill' })])],
    action: refund('C1', 10),
    evidence: lookups(evidenceCount),
    session,
  });
  return { verdict, ms: performance.now() - started };
}

describe('the step budget of a condition', () => {
  it('refuses a 2-level rule over 2,000 evidence rows before running it, saying why', async () => {
    const { verdict } = await judge(TWO_LEVEL, 2_000);
    expect(verdict.kind).toBe('kill');
    expect(verdict.citations.rationale).toBe(
      'HEAVY-1 v1 (kill): condition would take up to 48,008,002 steps on this evidence (2000 records, lists of up to 2000 items), over its budget of 200,000; counted as violated (nest fewer exists()/all() over evidence)',
    );
  });

  it('refuses a 4-level rule over 60 rows', async () => {
    const { verdict } = await judge(FOUR_LEVEL, 60);
    expect(verdict.kind).toBe('kill');
    expect(verdict.citations.rationale).toMatch(
      /^HEAVY-1 v1 \(kill\): condition would take up to [\d,]+ steps on this evidence \(60 records/,
    );
  });

  it('runs the same rules on small evidence, and a 1-level rule over 2,000 rows', async () => {
    expect((await judge(TWO_LEVEL, 20)).verdict.kind).toBe('pass');
    expect((await judge(FOUR_LEVEL, 4)).verdict.kind).toBe('pass');
    expect(
      (await judge('evidence.exists(e, e.tool == "mcp__cs__lookup_customer")', 2_000)).verdict.kind,
    ).toBe('pass');
  });

  it('the verdict does not depend on the machine: the estimate is a pure function of rule and evidence sizes', () => {
    const ast = {
      op: 'rcall',
      args: [
        'all',
        { op: 'id', args: 'evidence' },
        [
          { op: 'id', args: 'e' },
          { op: 'value', args: true },
        ],
      ],
    };
    expect(estimateConditionSteps(ast, { evidence: 10, longest: 10 })).toBe(1 + 1 + 10 * (1 + 2));
    expect(estimateConditionSteps(ast, { evidence: 10, longest: 10 })).toBe(
      estimateConditionSteps(ast, { evidence: 10, longest: 10 }),
    );
    expect(CONDITION_STEP_BUDGET).toBe(200_000);
  });

  it('a big list inside one tool output bounds only the comprehensions that may iterate it', async () => {
    const big = read(
      'evd_big',
      'mcp__cs__search',
      { q: 'x' },
      { items: Array.from({ length: 50_000 }, (_, i) => i) },
    );
    const verdict = await judgeAction({
      rules: [
        ruleSet([rule({ id: 'EVIDENCE-1', condition: 'evidence.exists(e, e.tool == "mcp__cs__search")' })]),
      ],
      action: refund('C1', 10),
      evidence: [big],
      session,
    });
    expect(verdict.kind).toBe('pass');
  });
});

import { describe, expect, it } from 'vitest';
import { buildCelActivation } from '../../../src/rules/build-cel-activation.js';
import { compileCondition } from '../../../src/rules/compile-condition.js';
import { explainFalseCondition, topLevelConjuncts } from '../../../src/rules/explain-false-condition.js';

// Issue 24 (console): "Why it is held" said "condition is false"; it shows the values compared.

const activation = buildCelActivation(
  {
    actionType: 'issue_refund',
    toolName: 'issue_refund',
    input: {},
    context: { recordId: 'C1', summary: 'refund 600 EUR', amount: 600, currency: 'EUR' },
  },
  [],
  { tenantId: 'acme', teamId: 'cs-ops', agentId: 'cs-bot' },
);
const explain = (condition: string) => explainFalseCondition(condition, activation, compileCondition);

describe('explainFalseCondition', () => {
  it('names the value and the bound of a false comparison', () => {
    expect(explain('action.context.amount <= 500')).toBe('action.context.amount is 600, not <= 500');
    expect(explain('action.context.currency == "USD"')).toBe(
      'action.context.currency is "EUR", not == "USD"',
    );
  });

  it('names an amount and its bound with the unit the action context gives', () => {
    const withUnit = buildCelActivation(
      {
        actionType: 'issue_refund',
        toolName: 'issue_refund',
        input: {},
        context: { recordId: 'C1', summary: 'refund', amount: 600, unit: 'USD' },
      },
      [],
      { tenantId: 'acme', teamId: 'cs-ops', agentId: 'cs-bot' },
    );
    expect(explainFalseCondition('action.context.amount <= 500', withUnit, compileCondition)).toBe(
      'action.context.amount is 600 USD, not <= 500 USD',
    );
    // Without a unit (the activation above has none): the bare numbers.
    expect(explain('action.context.amount < 100')).toBe('action.context.amount is 600, not < 100');
  });

  it('names only the false operands of a top-level &&, at most three', () => {
    expect(explain('action.context.currency == "EUR" && action.context.amount < 100')).toBe(
      'action.context.amount is 600, not < 100',
    );
    expect(
      explain(
        'action.context.amount < 1 && action.context.amount < 2 && action.context.amount < 3 && action.context.amount < 4',
      ),
    ).toBe(
      'action.context.amount is 600, not < 1; action.context.amount is 600, not < 2; action.context.amount is 600, not < 3',
    );
  });

  it('says nothing it cannot show: exists() over evidence, an ||, a missing field', () => {
    expect(explain('evidence.exists(e, e.tool == "lookup_customer")')).toBeUndefined();
    expect(explain('action.context.amount < 100 || action.context.currency == "USD"')).toBeUndefined();
    expect(explain('has(action.context.limit) && action.context.amount < 100')).toBe(
      'action.context.amount is 600, not < 100',
    );
  });

  it('splits on && outside parentheses and strings only', () => {
    expect(topLevelConjuncts('a && (b && c) && d == "x && y"')).toEqual(['a', '(b && c)', 'd == "x && y"']);
  });
});

import { describe, expect, it } from 'vitest';
import { NovarchError, NovarchKillError, RulesError } from '../../../src/errors.js';

describe('Novarch errors', () => {
  it('a kill carries the session, the action and the citations, and says why', () => {
    const citations = {
      ruleIds: ['TEAM-1'],
      evidenceIds: ['ev-1'],
      rationale: 'TEAM-1 v2 (kill): no lookup',
    };
    const error = new NovarchKillError({ sessionId: 's-1', actionId: 'a-1', citations });
    expect(error).toBeInstanceOf(NovarchError);
    expect(error.name).toBe('NovarchKillError');
    expect({ sessionId: error.sessionId, actionId: error.actionId, citations: error.citations }).toEqual({
      sessionId: 's-1',
      actionId: 'a-1',
      citations,
    });
    expect(error.message).toBe(
      'Novarch killed session s-1 at action a-1: TEAM-1 v2 (kill): no lookup [rules: TEAM-1]',
    );
  });

  it('an operator kill has no action and may cite no rule', () => {
    const error = new NovarchKillError({
      sessionId: 's-2',
      citations: { ruleIds: [], evidenceIds: [], rationale: 'killed by operator ops@acme' },
    });
    expect(error.actionId).toBeUndefined();
    expect(error.message).toBe('Novarch killed session s-2: killed by operator ops@acme');
  });

  it('a rules error lists each issue with its position and hint', () => {
    const error = new RulesError([
      {
        file: '/r.yaml',
        line: 3,
        column: 5,
        path: 'rules[0].id',
        message: 'duplicate rule id "A"',
        hint: 'rename one',
      },
      { file: '/r.yaml', path: '', message: 'rules file not found' },
    ]);
    expect(error).toBeInstanceOf(NovarchError);
    expect(error.message).toBe(
      '2 problems in rules file:\n/r.yaml:3:5  rules[0].id: duplicate rule id "A"\n    hint: rename one\n/r.yaml  rules file not found',
    );
  });
});

import { describe, expect, it } from 'vitest';
import * as novarch from '../../src/index.js';

describe('novarch public API', () => {
  it('exports exactly this list, and no internals', () => {
    expect(Object.keys(novarch).sort()).toEqual(
      [
        'ADOPT_DEPLOYMENT_WINDOW',
        'AnthropicLlmJudge',
        'DEFAULT_UNMAPPED_ALLOWLIST',
        'NovarchConfigError',
        'NovarchEngine',
        'NovarchError',
        'NovarchHookGate',
        'NovarchKillError',
        'NovarchStoreError',
        'RulesError',
        'augur',
        'defaultNovarchConfig',
        'formatFileIssue',
        'genericContext',
        'judgeAction',
        'loadNovarchConfig',
        'loadRulesFile',
        'loadRulesFiles',
        'openSqliteStore',
      ].sort(),
    );
  });
});

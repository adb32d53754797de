import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as novarch from '../../src/index.js';

const SOURCE = fileURLToPath(new URL('../../src', import.meta.url));

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
        'NovarchToolGovernor',
        'RulesError',
        'augur',
        'augurAsyncTool',
        'defaultNovarchConfig',
        'formatFileIssue',
        'genericContext',
        'judgeAction',
        'loadNovarchConfig',
        'loadRulesFile',
        'loadRulesFiles',
        'ModelLlmJudge',
        'openSqliteStore',
        'validateRulesFile',
      ].sort(),
    );
  });

  /** The SDK is an optional peer: only type imports and one lazy `import()` may name it. */
  it('never imports the Claude Agent SDK statically, so importing novarch works without it', () => {
    const files = readdirSync(SOURCE, { recursive: true, encoding: 'utf8' }).filter((file) =>
      file.endsWith('.ts'),
    );
    const staticImports = files.filter((file) =>
      /^\s*(import|export)\s+(?!type\b)[^;]*?\bfrom\s+['"]@anthropic-ai\/claude-agent-sdk['"]/m.test(
        readFileSync(path.join(SOURCE, file), 'utf8'),
      ),
    );
    expect(staticImports).toEqual([]);
    expect(files.length).toBeGreaterThan(10);
  });
});

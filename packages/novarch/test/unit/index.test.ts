import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as novarch from '../../src/index.js';

const SOURCE = fileURLToPath(new URL('../../src', import.meta.url));

describe('novarch public API', () => {
  it('exports exactly this list, and no internals', () => {
    expect(Object.keys(novarch).sort()).toEqual(
      [
        'ABORTED_HOLD_RATIONALE',
        'ADOPT_DEPLOYMENT_WINDOW',
        'AnthropicLlmJudge',
        'DEFAULT_JUDGE_TIMEOUT_MS',
        'DEFAULT_REDACTIONS',
        'DEFAULT_UNMAPPED_ALLOWLIST',
        'GOVERNED_SESSION_ENV',
        'NovarchConfigError',
        'NovarchEngine',
        'NovarchError',
        'NovarchHookGate',
        'NovarchKillError',
        'NovarchStoreError',
        'NovarchToolGovernor',
        'RulesError',
        'VerdictConflictError',
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
        // Issue 15 (store, rules as data, webhooks): the PostgreSQL store and store URLs,
        // versioned rules and replay, webhook notifications.
        'DEFAULT_POSTGRES_CONNECT_TIMEOUT_MS',
        'DEFAULT_POSTGRES_LOCK_WAIT_MS',
        'DEFAULT_POSTGRES_MAX_CONNECTIONS',
        'DEFAULT_SIGNATURE_TOLERANCE_SECONDS',
        'HOLD_CREATED_EVENT',
        'HoldWebhookPayloadSchema',
        'MIN_WEBHOOK_SECRET_LENGTH',
        'NOT_REJUDGED_LLM',
        'StoreUrlError',
        'WEBHOOK_DEFAULTS',
        'WEBHOOK_SIGNATURE_HEADER',
        'WebhookConfigError',
        'WebhookNotifier',
        'buildHoldWebhookPayload',
        'canonicalRulesContent',
        'diffLines',
        'openPostgresStore',
        'parseStoreUrl',
        'pushRules',
        'redactStoreUrl',
        'replayRules',
        'ruleSetContentHash',
        'ruleSetFromStored',
        'rulesContentHash',
        'signWebhook',
        'storedRuleSource',
        'validateRulesSource',
        'verifyWebhookSignature',
        'NovarchServerError',
        'RemoteEngine',
        'remoteEngine',
        'remoteEngineFromEnv',
        'startNovarchServer',
      ].sort(),
    );
  });

  /** Proves the values a program compares against are the ones Novarch uses. */
  it('exports the constants of its public behaviour', () => {
    expect(novarch.ABORTED_HOLD_RATIONALE).toBe(
      'the agent loop aborted the tool call while it was held; it did not run',
    );
    expect(novarch.DEFAULT_JUDGE_TIMEOUT_MS).toBe(30_000);
    expect(novarch.GOVERNED_SESSION_ENV).toBe('NOVARCH_GOVERNED_SESSION');
    expect(Object.isFrozen(novarch.DEFAULT_REDACTIONS)).toBe(true);
    expect(novarch.DEFAULT_REDACTIONS.every((pattern) => pattern instanceof RegExp)).toBe(true);
  });

  /**
   * Pins the exported types to the signatures that name them (checked by `tsc -p
   * tsconfig.tests.json`): a store implementation, a caller of `engine.decide`/`release` or of
   * `openSqliteStore` can name every type it handles.
   */
  it('exports the types its public signatures name', () => {
    type Store = novarch.NovarchStore;
    type Engine = novarch.NovarchEngine;
    expectTypeOf<novarch.ActionRelease>().toEqualTypeOf<Parameters<Store['releaseAction']>[0]>();
    expectTypeOf<novarch.ReleaseResult>().toEqualTypeOf<Awaited<ReturnType<Store['releaseAction']>>>();
    expectTypeOf<novarch.ReleaseResult>().toEqualTypeOf<Awaited<ReturnType<Engine['release']>>>();
    expectTypeOf<novarch.CallRefusal>().toEqualTypeOf<Parameters<Store['recordRefusal']>[0]>();
    expectTypeOf<novarch.KillDetails | undefined>().toEqualTypeOf<Parameters<Store['killSession']>[2]>();
    expectTypeOf<novarch.KillSource>().toEqualTypeOf<novarch.KillDetails['source']>();
    expectTypeOf<novarch.SessionKill | undefined>().toEqualTypeOf<novarch.SessionRecord['kill']>();
    expectTypeOf<novarch.VerdictSource>().toEqualTypeOf<novarch.VerdictRecord['source']>();
    expectTypeOf<novarch.DecideOptions | undefined>().toEqualTypeOf<Parameters<Engine['decide']>[2]>();
    expectTypeOf<novarch.SqliteStoreOptions | undefined>().toEqualTypeOf<
      Parameters<typeof novarch.openSqliteStore>[1]
    >();
    expectTypeOf<novarch.SqliteStoreOptions>().toExtend<novarch.StoredValueOptions>();
    expectTypeOf<novarch.HoldListener | undefined>().toEqualTypeOf<
      novarch.NovarchHookGateOptions['onHold']
    >();
    expectTypeOf<novarch.HoldListener | undefined>().toEqualTypeOf<
      novarch.NovarchToolGovernorOptions['onHold']
    >();
    expectTypeOf<Parameters<novarch.HoldListener>[0]['hold']>().toEqualTypeOf<novarch.HoldRecord>();
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

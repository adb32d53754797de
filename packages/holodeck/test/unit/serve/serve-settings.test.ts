import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validateAgentFile } from '../../../src/config/index.js';
import { durationMs } from '../../../src/config/schema/serve-config-schema.js';
import { UsageError } from '../../../src/errors.js';
import { ApiKeys, createApiKey } from '../../../src/serve/api-keys.js';
import {
  CLAUDE_SESSION_BYTES,
  defaultMaxSessions,
  parseProtocols,
  resolveServeSettings,
} from '../../../src/serve/resolve-serve-settings.js';
import { type AgentSandbox, createSandbox } from '../config/agent-sandbox.js';

const MB = 1024 * 1024;

describe('serve settings', () => {
  it('reads durations', () => {
    expect(durationMs('30m')).toBe(1_800_000);
    expect(durationMs('90s')).toBe(90_000);
    expect(durationMs('2h')).toBe(7_200_000);
    expect(durationMs('500ms')).toBe(500);
    expect(durationMs('soon')).toBeUndefined();
  });

  it('derives the session cap from free memory: ~230 MB per Claude CLI, 512 MB kept', () => {
    expect(defaultMaxSessions(true, 512 * MB + 4 * CLAUDE_SESSION_BYTES + 10)).toBe(4);
    expect(defaultMaxSessions(true, 100 * MB)).toBe(1);
    expect(defaultMaxSessions(false, 512 * MB + 160 * MB)).toBe(10);
    expect(defaultMaxSessions(false, 64 * 1024 * MB)).toBe(1000);
  });

  it('takes flags over agent.yaml over defaults', () => {
    const settings = resolveServeSettings(
      { protocols: ['rest', 'mcp'], session_ttl: 60_000, max_sessions: 4, sessions_dir: 'shared' },
      { protocols: ['a2a'] },
      true,
      '/agents/bot',
    );
    expect([...settings.protocols]).toEqual(['a2a']);
    expect(settings).toMatchObject({
      maxSessions: 4,
      maxSessionsSource: 'serve.max_sessions',
      maxConcurrentTurns: 4,
      sessionTtlMs: 60_000,
      turnTimeoutMs: 600_000,
      maxBodyBytes: 1_048_576,
      maxMessageChars: 100_000,
      sessionsDir: '/agents/bot/shared',
    });
  });

  it('refuses an unknown protocol in --protocols, naming it and the known ones', () => {
    expect(() => parseProtocols('rest,grpc')).toThrow(UsageError);
    expect(() => parseProtocols('rest,grpc')).toThrow(
      '--protocols: unknown protocol "grpc"\n    hint: give a comma-separated list of rest, responses, ag-ui, mcp, a2a',
    );
    expect(parseProtocols('mcp, rest')).toEqual(['rest', 'mcp']);
  });
});

describe('API keys', () => {
  it('verifies created keys by their hash only, and keys from the variable', () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'serve-keys-'));
    const file = path.join(folder, 'keys.json');
    const alice = createApiKey(file, 'alice');
    const keys = ApiKeys.load(file, 'plain-one');
    expect(keys.verify(alice.key)).toBe('alice');
    expect(keys.verify('plain-one')).toMatch(/^env-[0-9a-f]{8}$/);
    expect(keys.verify('nope')).toBeUndefined();
    expect(ApiKeys.load(undefined, ' , ').enabled).toBe(false);
  });

  it('says how to fix a keys file that is missing or not one', () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'serve-keys-'));
    const missing = path.join(folder, 'missing.json');
    expect(() => ApiKeys.load(missing, undefined)).toThrow(
      `--keys: cannot read ${missing} (ENOENT)\n    hint: create it with: holodeck serve keys create --keys ${missing}`,
    );
    const broken = path.join(folder, 'broken.json');
    writeFileSync(broken, '{"keys":[{"id":"a","sha256":"xyz","createdAt":"now"}]}');
    expect(() => ApiKeys.load(broken, undefined)).toThrow(
      /--keys: .*broken\.json is not a keys file: keys\.0\.sha256: /,
    );
  });
});

describe('the serve: block of agent.yaml', () => {
  let sandbox: AgentSandbox;
  beforeEach(async () => {
    sandbox = await createSandbox();
  });
  afterEach(() => sandbox.remove());

  it('reports each bad field with file:line and what is expected', async () => {
    const file = await sandbox.write(
      'agent.yaml',
      [
        'name: served',
        'model: { provider: openai, name: gpt-4o }',
        'instructions: { inline: hi }',
        'serve:',
        '  protocols: [rest, grpc]',
        '  session_ttl: soon',
        '  max_sesions: 3',
        '',
      ].join('\n'),
    );
    const validation = await validateAgentFile(file, { env: {}, homeDir: os.tmpdir() });
    const shown = validation.issues.map((issue) => `${issue.line}: ${issue.path}: ${issue.message}`);
    expect(shown).toContain(
      '5: serve.protocols[1]: expected one of "rest", "responses", "ag-ui", "mcp", "a2a"; got the string "grpc"',
    );
    expect(shown).toContainEqual(
      expect.stringMatching(/^6: serve\.session_ttl: .*must be a duration such as 30m, 90s, 2h or 500ms/),
    );
    expect(shown).toContainEqual(
      expect.stringMatching(/^7: serve\.max_sesions: unknown key "max_sesions" in serve/),
    );
    expect(validation.issues.find((issue) => issue.path === 'serve.max_sesions')?.hint).toBe(
      'did you mean "max_sessions"?',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { EXIT_CODE_MEANINGS, ExitCode, exitCodeFor, exitCodesHelp } from '../../../src/cli/exit-codes.js';
import {
  AgentSessionError,
  ConfigError,
  CredentialRejectedError,
  InternalError,
  InterruptedError,
  UsageError,
  UserModuleError,
} from '../../../src/errors.js';

describe('exit codes', () => {
  it('gives an internal error its own code, apart from failed tests', () => {
    expect(exitCodeFor(new TypeError('x is undefined'))).toBe(4);
    expect(ExitCode.internal).not.toBe(ExitCode.testsFailed);
    expect(new Set(Object.values(ExitCode)).size).toBe(Object.values(ExitCode).length);
  });

  it('maps every error class in one place', () => {
    expect(exitCodeFor(new ConfigError([{ file: 'a.yaml', path: '', message: 'bad' }]))).toBe(2);
    expect(exitCodeFor(new UsageError('--shard', 'invalid shard "3/2"'))).toBe(2);
    expect(exitCodeFor(new CredentialRejectedError('authentication failed', 'case'))).toBe(2);
    expect(exitCodeFor(new AgentSessionError('the claude process exited with code 1'))).toBe(3);
    expect(exitCodeFor(new InterruptedError('interrupted by SIGINT'))).toBe(130);
    // A user's tool module failing at teardown is the user's error, not a bug of holodeck.
    expect(exitCodeFor(new UserModuleError('close() of a function tool module failed: x.mjs: boom'))).toBe(3);
    expect(exitCodeFor(new InternalError('ClaudeBackend.initialize() must be called first.'))).toBe(4);
  });

  it('documents each code once, in order', () => {
    expect(EXIT_CODE_MEANINGS.map((entry) => entry.code)).toEqual([0, 1, 2, 3, 4, 5, 130]);
  });

  it('130 covers SIGHUP too, which ends a chat on a terminal (README "Chatting on a terminal")', () => {
    expect(exitCodesHelp()).toContain(
      '  130  interrupted by SIGINT (Ctrl+C) or SIGTERM, or a terminal chat by SIGHUP (test: the report is written and the run saved)',
    );
  });
});

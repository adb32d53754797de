import { describe, expect, it } from 'vitest';
import { resolveClaudeBinary } from '../../../src/backends/claude/resolve-claude-binary.js';
import { RuntimeMissingError } from '../../../src/errors.js';

const notInstalled = () => {
  throw new Error('Cannot find module');
};

describe('resolveClaudeBinary', () => {
  it('finds the bundled binary on this machine', () => {
    expect(resolveClaudeBinary({ env: {} })).toMatch(/claude-agent-sdk-linux-x64(-musl)?\/claude$/);
  });

  it('explains how to install the optional dependency when it is missing', () => {
    const attempt = () =>
      resolveClaudeBinary({ env: {}, platform: 'linux', arch: 'x64', resolve: notInstalled });
    expect(attempt).toThrow(RuntimeMissingError);
    expect(attempt).toThrow(
      'The claude binary bundled with @anthropic-ai/claude-agent-sdk is not installed (expected package @anthropic-ai/claude-agent-sdk-linux-x64). It is an optional dependency: reinstall without --omit=optional / --no-optional (e.g. `npm ci --include=optional`), or set HOLODECK_CLAUDE_PATH to the path of a claude executable.',
    );
  });

  it('names unsupported platforms', () => {
    expect(() =>
      resolveClaudeBinary({ env: {}, platform: 'freebsd', arch: 'x64', resolve: notInstalled }),
    ).toThrow(/ships no claude binary for this platform \(freebsd-x64\)/);
  });

  it('rejects an override that is not executable', () => {
    expect(() => resolveClaudeBinary({ env: { HOLODECK_CLAUDE_PATH: '/nonexistent/claude' } })).toThrow(
      'HOLODECK_CLAUDE_PATH points at "/nonexistent/claude", which is not an executable file.',
    );
  });
});

import { mkdirSync, mkdtempSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  claudeProjectFolder,
  claudeProjectFolderName,
  LONGEST_PROJECT_FOLDER,
} from '../../../src/backends/claude/claude-project-folder.js';

// The names below are the folders the Claude CLI 2.1.332 (the SDK's pinned binary) created itself
// when run in these very paths.
const q = (count: number) => 'q'.repeat(count);

describe('claudeProjectFolderName', () => {
  it('makes every character that is not a letter or a digit "-" in a short path', () => {
    expect(claudeProjectFolderName('/srv/agent')).toBe('-srv-agent');
    expect(claudeProjectFolderName('/home/ann/my_agent.v2')).toBe('-home-ann-my-agent-v2');
  });

  it('keeps a name of exactly 200 characters whole', () => {
    const real = `/tmp/pf-check/${q(186)}`;
    expect(real).toHaveLength(LONGEST_PROJECT_FOLDER);
    expect(claudeProjectFolderName(real)).toBe(`-tmp-pf-check-${q(186)}`);
  });

  it("cuts a longer name at 200 characters and adds '-' and the CLI's fingerprint of the whole path", () => {
    expect(claudeProjectFolderName(`/tmp/pf-check/${q(187)}`)).toBe(`-tmp-pf-check-${q(186)}-n7uug6`);
    const deep = `/tmp/pf-check/${'a'.repeat(90)}/${'b'.repeat(90)}/c.d_e`;
    const name = claudeProjectFolderName(deep);
    expect(name).toBe(`-tmp-pf-check-${'a'.repeat(90)}-${'b'.repeat(90)}-c-d--ajw9fs`);
    expect(name).toHaveLength(LONGEST_PROJECT_FOLDER + 7);
  });

  it('counts UTF-16 code units, as the CLI does: "é" is one "-", an emoji two', () => {
    const real = `/tmp/pf-check/${'é'.repeat(60)}/${'x'.repeat(130)}/🚀`;
    expect(claudeProjectFolderName(real)).toBe(`-tmp-pf-check-${'-'.repeat(61)}${'x'.repeat(125)}-omf0d6`);
    expect(claudeProjectFolderName('/a/🚀')).toBe('-a---');
  });

  it('takes CLAUDE_CODE_PROJECT_DIR_NAME when CLAUDE_CONFIG_DIR is set and the name is a plain one', () => {
    const config = { CLAUDE_CONFIG_DIR: '/cfg' };
    expect(
      claudeProjectFolderName('/srv/agent', { ...config, CLAUDE_CODE_PROJECT_DIR_NAME: 'my_proj' }),
    ).toBe('my_proj');
    // Without CLAUDE_CONFIG_DIR, or with a name the CLI does not take, the path decides.
    expect(claudeProjectFolderName('/srv/agent', { CLAUDE_CODE_PROJECT_DIR_NAME: 'my_proj' })).toBe(
      '-srv-agent',
    );
    for (const name of ['../up', 'a b', 'x'.repeat(65), 'NUL', 'com1', ''])
      expect(claudeProjectFolderName('/srv/agent', { ...config, CLAUDE_CODE_PROJECT_DIR_NAME: name })).toBe(
        '-srv-agent',
      );
  });
});

describe('claudeProjectFolder', () => {
  it('names the real path of the working directory (symlinks resolved), and a missing one as given', async () => {
    const base = mkdtempSync(path.join(tmpdir(), 'claude-folder-'));
    const real = path.join(base, 'real');
    mkdirSync(real);
    symlinkSync(real, path.join(base, 'link'));
    const expected = claudeProjectFolderName(path.join(realpathSync(base), 'real'));
    expect(await claudeProjectFolder(path.join(base, 'link'))).toBe(expected);
    expect(await claudeProjectFolder('/no/such/place')).toBe('-no-such-place');
  });
});

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  exportClaudeSession,
  importClaudeSession,
} from '../../../src/backends/claude/carry-claude-session.js';
import { claudeProjectFolderName } from '../../../src/backends/claude/claude-project-folder.js';

// How a Claude CLI transcript travels through serve.sessions_dir: out of one HOME's projects
// folder, into another's project folder of the agent's working directory.
const ID = '9cf56692-610a-4661-8fb2-d75e7525a5f0';

function temp(): string {
  return mkdtempSync(path.join(tmpdir(), 'carry-claude-'));
}

describe('exportClaudeSession / importClaudeSession', () => {
  it("copies the transcript and its companion folder out, and into the working directory's project folder", async () => {
    const homeA = temp();
    const project = path.join(homeA, '.claude', 'projects', '-srv-agent-a');
    mkdirSync(path.join(project, ID, 'tool-results'), { recursive: true });
    writeFileSync(path.join(project, `${ID}.jsonl`), '{"type":"user"}\n');
    writeFileSync(path.join(project, ID, 'tool-results', 'r1.txt'), 'big result');
    const shared = path.join(temp(), 'alpha.0123.state');
    expect(await exportClaudeSession(ID, shared, { HOME: homeA })).toBe(true);
    expect(readFileSync(path.join(shared, `${ID}.jsonl`), 'utf8')).toBe('{"type":"user"}\n');

    const homeB = temp();
    const workingDirectory = temp();
    expect(await importClaudeSession(ID, shared, { HOME: homeB }, workingDirectory)).toBe(true);
    // The CLI's name for a folder: every character but letters and digits made "-".
    const folder = workingDirectory.replace(/[^a-zA-Z0-9]/g, '-');
    const imported = path.join(homeB, '.claude', 'projects', folder);
    expect(readFileSync(path.join(imported, `${ID}.jsonl`), 'utf8')).toBe('{"type":"user"}\n');
    expect(readFileSync(path.join(imported, ID, 'tool-results', 'r1.txt'), 'utf8')).toBe('big result');
  });

  it('imports for a working directory deeper than 255 characters into the folder the CLI names (cut, fingerprinted)', async () => {
    const shared = temp();
    writeFileSync(path.join(shared, `${ID}.jsonl`), '{"type":"user"}\n');
    const workingDirectory = path.join(temp(), 'd'.repeat(120), 'e'.repeat(120), 'f'.repeat(40));
    mkdirSync(workingDirectory, { recursive: true });
    const homeB = temp();
    expect(await importClaudeSession(ID, shared, { HOME: homeB }, workingDirectory)).toBe(true);
    const folder = claudeProjectFolderName(realpathSync(workingDirectory));
    expect(folder).toMatch(/^.{200}-[0-9a-z]+$/);
    expect(readdirSync(path.join(homeB, '.claude', 'projects'))).toEqual([folder]);
    expect(readFileSync(path.join(homeB, '.claude', 'projects', folder, `${ID}.jsonl`), 'utf8')).toBe(
      '{"type":"user"}\n',
    );
  });

  it("replaces this machine's older copy where it is, and honours CLAUDE_CONFIG_DIR", async () => {
    const config = temp();
    const stale = path.join(config, 'projects', '-elsewhere');
    mkdirSync(stale, { recursive: true });
    writeFileSync(path.join(stale, `${ID}.jsonl`), 'old\n');
    const shared = temp();
    writeFileSync(path.join(shared, `${ID}.jsonl`), 'new\n');
    expect(await importClaudeSession(ID, shared, { CLAUDE_CONFIG_DIR: config, HOME: temp() }, temp())).toBe(
      true,
    );
    expect(readFileSync(path.join(stale, `${ID}.jsonl`), 'utf8')).toBe('new\n');
  });

  it('says false when there is nothing to carry, and refuses ids that are not session ids', async () => {
    const home = temp();
    expect(await exportClaudeSession(ID, temp(), { HOME: home })).toBe(false);
    expect(await importClaudeSession(ID, temp(), { HOME: home }, temp())).toBe(false);
    await expect(exportClaudeSession('../etc', temp(), { HOME: home })).rejects.toThrow(
      '"../etc" is not a Claude session id',
    );
    await expect(importClaudeSession(ID, temp(), {}, temp())).rejects.toThrow(
      `session "${ID}" cannot be resumed here: neither HOME nor CLAUDE_CONFIG_DIR is set, so the Claude CLI has no sessions folder`,
    );
  });
});

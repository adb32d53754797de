import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backendWarningOf } from '../../../src/chat/backend-warning-of.js';
import { WARNING_CODES } from '../../../src/index.js';
import { type AgentSandbox, BASE, createSandbox, lines } from './agent-sandbox.js';

const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((entry) => {
    const full = path.join(directory, entry);
    return statSync(full).isDirectory() ? sourceFiles(full) : full.endsWith('.ts') ? [full] : [];
  });
}

let sandbox: AgentSandbox;
beforeEach(async () => {
  sandbox = await createSandbox();
});
afterEach(() => sandbox.remove());

describe('warning codes', () => {
  it('are one exported list, pinned here (a new warning adds its code)', () => {
    expect(WARNING_CODES).toEqual([
      'auth-provider-ignored',
      'claude-block-ignored',
      'claude-md-present',
      'credentials-missing',
      'judge',
      'literal-password',
      'mcp-command-not-found',
      'model-call-warning',
      'model-field-ignored',
      'model-setting-compatibility',
      'model-setting-unsupported',
      'observability-unsupported',
      'retrieval-ingest',
      'temperature-unsupported',
      'tool-filtering-unsupported',
      'tool-names-resolved-at-run-start',
      'tool-off-in-tests',
    ]);
  });

  it('are each emitted somewhere in src/ (no code is left in the list after its warning went)', () => {
    const sources = sourceFiles(SRC)
      .filter((file) => !file.endsWith(`${path.sep}warning-code.ts`))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    expect(WARNING_CODES.filter((code) => !sources.includes(`'${code}'`))).toEqual([]);
  });

  it("carry the setting's field path and line, from agent.yaml and from the backend's rules", async () => {
    const result = await sandbox.validate(
      lines(...BASE.slice(0, 4), '  temperature: 0.2', ...BASE.slice(4), 'tool_filtering:', '  top_k: 3'),
    );
    expect(result.issues).toEqual([]);
    expect(result.warnings.map(({ code, path: field, line }) => ({ code, path: field, line }))).toEqual([
      { code: 'temperature-unsupported', path: 'model.temperature', line: 5 },
      { code: 'tool-filtering-unsupported', path: 'tool_filtering', line: 8 },
    ]);
    for (const warning of result.warnings) expect(WARNING_CODES).toContain(warning.code);
  });

  it('keep their path when a session start reports them', () => {
    expect(
      backendWarningOf({ code: 'temperature-unsupported', message: 'm', path: 'model.temperature', line: 5 }),
    ).toEqual({ code: 'temperature-unsupported', message: 'm', path: 'model.temperature' });
    expect(backendWarningOf({ code: 'judge', message: 'm' })).toEqual({ code: 'judge', message: 'm' });
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runNovarch } from './run-novarch-in-process.js';

// `novarch operators create --group … --not-for-key …`: the duties of an operator token.

const dir = mkdtempSync(path.join(tmpdir(), 'novarch-operator-duties-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const store = path.join(dir, 'novarch.db');
const novarch = (...args: string[]) => runNovarch(['--store', store, ...args], { cwd: dir, env: {} });

describe('operator duties', () => {
  it('a token in groups and barred from an agent key lists both', async () => {
    const key = await novarch(
      'keys',
      'create',
      '--tenant',
      'acme',
      '--name',
      'cs-bot',
      '--agent',
      'cs-bot',
      '--json',
    );
    expect(key.code).toBe(0);
    const keyId = (JSON.parse(key.stdout) as { key: { id: string } }).key.id;
    const created = await novarch(
      'operators',
      'create',
      '--name',
      'cs-lead',
      '--grant',
      'acme',
      '--group',
      'support-leads',
      '--group',
      'finance',
      '--not-for-key',
      keyId,
      '--json',
    );
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({
      token: { name: 'cs-lead', groups: ['support-leads', 'finance'], notForKeys: [keyId] },
    });
    const listed = await novarch('operators', 'list');
    expect(listed.stdout).toMatch(/GROUPS +NOT FOR/);
    expect(listed.stdout).toContain(`support-leads,finance  ${keyId}`);
  });

  it('an unknown agent key id and a malformed group are refused, nothing created', async () => {
    const unknown = await novarch(
      'operators',
      'create',
      '--name',
      'x',
      '--grant',
      'acme',
      '--not-for-key',
      'nva_nope',
    );
    expect(unknown.code).not.toBe(0);
    expect(unknown.error).toBe(
      "--not-for-key nva_nope: no such agent key in this store (list them with `novarch keys list`; pass the key's id, nva_…, not its secret)",
    );
    const group = await novarch(
      'operators',
      'create',
      '--name',
      'y',
      '--grant',
      'acme',
      '--group',
      'finance leads',
    );
    expect(group.error).toBe(
      'approver group "finance leads" is not valid: use 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit',
    );
    const listed = await novarch('operators', 'list', '--json');
    expect((JSON.parse(listed.stdout) as { name: string }[]).map((token) => token.name)).toEqual(['cs-lead']);
  });
});

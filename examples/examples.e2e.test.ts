import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { validateAgentFile } from '../packages/holodeck/src/config/index.js';

const examples = path.dirname(fileURLToPath(import.meta.url));

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: path.dirname(examples),
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('examples/', () => {
  const agents = readdirSync(examples, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(examples, entry.name, 'agent.yaml'));

  it.each(agents)('%s is valid with no warnings', async (file) => {
    const { issues, warnings } = await validateAgentFile(file, { env: { ANTHROPIC_API_KEY: 'x' } });
    expect(issues).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('npm run demo answers from the real function tool through the real CLI', async () => {
    const outcome = await run(['examples/run-offline-demo.mjs']);
    expect(outcome.stderr).not.toMatch(/warning/i);
    expect(outcome).toMatchObject({
      code: 0,
      stdout: 'Your order A-1001 has shipped with DHL; the total was $54.9.\n',
    });
  });
});

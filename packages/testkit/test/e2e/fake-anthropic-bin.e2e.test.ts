import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { messagesBody, postJson } from '../support/post-messages.js';

// The fake-anthropic bin as a process (its flags: test/unit/fake-anthropic-args.test.ts).

describe('the fake-anthropic bin', () => {
  const binPath = fileURLToPath(new URL('../../src/bin/fake-anthropic.ts', import.meta.url));
  let child: ChildProcess | undefined;

  afterEach(async () => {
    if (child !== undefined && child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });

  it('prints ANTHROPIC_BASE_URL first, answers each --reply in turn, then repeats the last', async () => {
    child = spawn(process.execPath, ['--import', 'tsx', binPath, '--reply', 'first', '--reply', 'second'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (child.stdout === null) throw new Error('no stdout');
    const lines = createInterface({ input: child.stdout });
    const [firstLine] = await once(lines, 'line');
    const match = /^ANTHROPIC_BASE_URL=(http:\/\/127\.0\.0\.1:\d+)$/.exec(String(firstLine));
    expect(match, String(firstLine)).not.toBeNull();
    const url = match?.[1] ?? '';

    const texts: string[] = [];
    for (let turn = 0; turn < 3; turn += 1) {
      const response = await postJson(url, '/v1/messages?beta=true', messagesBody());
      texts.push(JSON.stringify(await response.json()));
    }
    expect(texts[0]).toContain('"text":"first"');
    expect(texts[1]).toContain('"text":"second"');
    expect(texts[2]).toContain('"text":"second"');

    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });

  it('exits 2 with the usage text on a bad flag', async () => {
    child = spawn(process.execPath, ['--import', 'tsx', binPath, '--port', 'x'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const [code] = await once(child, 'exit');
    expect(code).toBe(2);
    expect(stderr).toContain('fake-anthropic: --port expects a whole number >= 0, got "x"');
    expect(stderr).toContain('Usage: fake-anthropic');
  });
});

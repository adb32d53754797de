// biome-ignore-all lint/suspicious/noTemplateCurlyInString: agent.yaml ${VAR} references are the test's input
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { reply, respond, startFakeAnthropic, waitUntil } from '@holodeck/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createViewApp } from '../../../src/view/view-app.js';
import { createE2eAgent, TEST_API_KEY } from '../support/e2e-agent.js';
import { HOLODECK_BIN, runHolodeckCli } from '../support/run-holodeck-cli.js';

const SECRETS = { SERVICE_TOKEN: 'tok-very-secret-123', OPENAI_API_KEY: 'sk-openai-secret-456' };

let fake: Awaited<ReturnType<typeof startFakeAnthropic>>;
beforeAll(async () => {
  fake = await startFakeAnthropic({
    repeatLast: true,
    steps: [
      respond((request) => {
        const first = JSON.stringify(request.messagesBody?.messages?.[0] ?? '');
        return first.includes('slowly') ? reply('Paris, slowly.', { delayMs: 4_000 }) : reply('Paris.');
      }),
    ],
  });
});
afterAll(() => fake.close());

function secretAgent() {
  return createE2eAgent(fake.url, {
    config: {
      // A user who wrote a credential into a description, and a key into the config.
      description: 'Calls the CRM with ${SERVICE_TOKEN}.',
      embedding_provider: {
        provider: 'openai',
        name: 'text-embedding-3-small',
        api_key: '${OPENAI_API_KEY}',
      },
      test_cases: [
        { name: 'fast', input: 'Capital of France?', metrics: [{ type: 'contains', value: 'Paris' }] },
        { name: 'slow', input: 'Capital of France, slowly?', metrics: [{ type: 'contains', value: 'Rome' }] },
      ],
    },
    env: SECRETS,
  });
}

function runFiles(directory: string): string[] {
  const dir = path.join(directory, '.holodeck', 'runs');
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .map((name) => path.join(dir, name));
  } catch {
    return [];
  }
}

describe('holodeck test: the saved record and the HTML report', () => {
  it('saves the record as cases finish, records git, versions and the redacted configuration, and never a secret', async () => {
    const agent = secretAgent();
    const report = path.join(agent.directory, 'out', 'report.html');
    const running = runHolodeckCli(['test', agent.file, '-c', '1', '--output', report], agent.env);
    // While the slow case waits on the model, the record of the fast one is on disk.
    const partial = await waitUntil(
      (): { in_progress?: unknown; cases: unknown[] } | undefined => {
        const [file] = runFiles(agent.directory);
        return file ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
      },
      { timeoutMs: 60_000, what: 'the record of the fast case on disk' },
    );
    expect(partial?.in_progress).toEqual({ planned_cases: 2 });
    expect(partial?.cases).toHaveLength(1);
    const outcome = await running;
    expect(outcome.code, outcome.stderr).toBe(1); // the slow case expects Rome
    expect(outcome.stderr).toContain('html report written to');
    const [file] = runFiles(agent.directory);
    if (!file) throw new Error('no saved run');
    const saved = readFileSync(file, 'utf8');
    const record = JSON.parse(saved);
    expect(record.schema_version).toBe(2);
    expect(record.in_progress).toBeUndefined();
    expect(record.suite_cases).toEqual(['fast', 'slow']);
    expect(record.environment.versions).toMatchObject({
      holodeck: expect.any(String),
      node: process.version,
      sdk: { name: '@anthropic-ai/claude-agent-sdk', version: expect.any(String) },
      cli: expect.any(String),
    });
    expect(record.agent.config.description).toBe('Calls the CRM with [redacted].');
    expect(record.agent.config.embedding_provider.api_key).toBe('[redacted]');
    expect(record.agent.config_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    const html = readFileSync(report, 'utf8');
    const view = createViewApp({ runsDir: path.dirname(file) });
    const served = await (
      await view.app.request(`/api/runs/${record.run_id}`, { headers: { host: 'localhost' } })
    ).text();
    view.close();
    for (const text of [saved, html, served]) {
      for (const secret of [...Object.values(SECRETS), TEST_API_KEY]) expect(text).not.toContain(secret);
      expect(text).toContain('[redacted]');
    }
    expect(html).toContain('<script type="application/json" id="holodeck-data">');
  });
});

describe('holodeck test view', () => {
  it('prints its URL, serves the runs, and ends cleanly on SIGTERM', async () => {
    const agent = secretAgent();
    const ran = await runHolodeckCli(['test', agent.file, '--filter', 'fast'], agent.env);
    expect(ran.code, ran.stderr).toBe(0);
    const child = spawn(process.execPath, [HOLODECK_BIN, 'test', 'view', agent.file], {
      env: { NO_COLOR: '1', ...agent.env },
      stdio: 'pipe',
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await waitUntil(() => /http:\/\/127\.0\.0\.1:\d+\//.test(stdout), {
      timeoutMs: 30_000,
      what: 'holodeck test view to print its address',
    }).catch(() => {}); // the expectation below shows stderr
    const url = /http:\/\/127\.0\.0\.1:\d+\//.exec(stdout)?.[0];
    expect(url, stderr).toBeDefined();
    expect(stdout).toBe(`holodeck test view: ${url}\n`);
    // biome-ignore lint/suspicious/noExplicitAny: the server's own JSON
    const list: any = await (await fetch(`${url}api/runs`)).json();
    expect(list.runs).toHaveLength(1);
    expect(list.runs[0].agent.name).toBe('e2e-agent');
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr).toContain('stopping (SIGTERM): stopping the view server');
  });

  it('refuses a non-local --host without --allow-remote, a bad --port and a missing agent file', async () => {
    const agent = secretAgent();
    const remote = await runHolodeckCli(['test', 'view', agent.file, '--host', '0.0.0.0'], agent.env);
    expect(remote.code).toBe(2);
    expect(remote.stderr).toContain(
      '--host: 0.0.0.0 is not a loopback address: anyone who can reach it could read every saved run (answers, tool results, the agent configuration)\n    hint: add --allow-remote to serve it anyway, or leave --host out to serve 127.0.0.1 only',
    );
    const port = await runHolodeckCli(['test', 'view', agent.file, '--port', 'http'], agent.env);
    expect(port.code).toBe(2);
    expect(port.stderr).toContain(
      '--port: needs a whole number from 0 to 65535, got "http"\n    hint: leave it out for a free port',
    );
    const missing = await runHolodeckCli(
      ['test', 'view', path.join(agent.directory, 'nope.yaml')],
      agent.env,
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      `<agent.yaml>: ${path.join(agent.directory, 'nope.yaml')} does not exist`,
    );
  });
});

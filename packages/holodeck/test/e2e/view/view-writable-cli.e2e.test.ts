import { spawn } from 'node:child_process';
import { waitUntil } from '@holodeck/testkit';
import { describe, expect, it } from 'vitest';
import { createE2eAgent } from '../support/e2e-agent.js';
import { HOLODECK_BIN, runHolodeckCli } from '../support/run-holodeck-cli.js';

// No model is called: the viewer only serves; the URL is a placeholder.
function calibratedAgent() {
  return createE2eAgent('http://127.0.0.1:9', {
    config: {
      evaluations: {
        metrics: [{ type: 'g-eval', name: 'helpfulness', criteria: 'Helpful.', calibration: 'labels.yaml' }],
      },
      test_cases: [{ name: 'greets', input: 'hello' }],
    },
  });
}

describe('holodeck test view --writable', () => {
  it('serves the labelling control on loopback: /api/labelling names the calibrated judges; a post without the token is 403', async () => {
    const agent = calibratedAgent();
    const child = spawn(process.execPath, [HOLODECK_BIN, 'test', 'view', agent.file, '--writable'], {
      env: { NO_COLOR: '1', ...agent.env },
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
    });
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      await waitUntil(() => /http:\/\/\S+\//.test(stdout), { timeoutMs: 30_000, what: 'the view URL' });
      const url = /http:\/\/\S+\//.exec(stdout)?.[0] ?? '';
      const labelling = (await (await fetch(`${url}api/labelling`)).json()) as Record<string, unknown>;
      expect(labelling).toMatchObject({ writable: true, metrics: ['helpfulness'] });
      expect(typeof labelling.token === 'string' && labelling.token.length >= 32).toBe(true);
      const refused = await fetch(`${url}api/runs/x/cases/greets/labels`, {
        method: 'POST',
        headers: { origin: url.replace(/\/$/, ''), 'content-type': 'application/json' },
        body: JSON.stringify({ metric: 'helpfulness', label: 'pass' }),
      });
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({
        error: "Refused: the request lacks this viewer's CSRF token (reload the page to get a fresh one).",
      });
    } finally {
      child.kill('SIGINT');
    }
    expect(await closed).toBe(0);
  });

  it('refuses --writable on a non-loopback host (exit 2)', async () => {
    const agent = calibratedAgent();
    const outcome = await runHolodeckCli(
      ['test', 'view', agent.file, '--writable', '--host', '0.0.0.0', '--allow-remote'],
      agent.env,
    );
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain(
      '--writable: the viewer writes labels files only when it listens on a loopback address, not 0.0.0.0',
    );
  });
});

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServerProcess } from './support/novarch-server-process.js';
import { runNovarch } from './support/run-novarch-cli.js';

describe('novarch serve', () => {
  it('shuts down gracefully on SIGTERM: exit 0, the store closed', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'novarch-serve-'));
    const server = await startServerProcess(['--store', `sqlite:${path.join(directory, 'n.db')}`]);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('novarch serve: SIGTERM: shutting down (finishing requests in flight)');
    expect(server.output()).toContain('novarch serve: stopped; the store is closed');
  });

  it('refuses a bad listen address, store URL or hold window with exit 2, naming where it came from', async () => {
    const listen = await runNovarch(['serve', '--listen', 'localhost'], {});
    expect(listen.code).toBe(2);
    expect(listen.stderr).toContain(
      '--listen: "localhost" is not an address to listen on: write HOST:PORT, e.g. 127.0.0.1:7311 (this machine) or 0.0.0.0:7311 (every interface)',
    );
    const fromEnv = await runNovarch(['serve'], { NOVARCH_HOLD_WINDOW_SECONDS: 'soon' });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toContain(
      '$NOVARCH_HOLD_WINDOW_SECONDS: "soon" is not a hold window: write a whole number of seconds ≥ 1, e.g. 300',
    );
    const drain = await runNovarch(['serve', '--drain-timeout', '0'], {});
    expect(drain.code).toBe(2);
    expect(drain.stderr).toContain(
      '--drain-timeout: "0" is not a drain timeout: write a whole number of seconds ≥ 1, e.g. 30',
    );
    const store = await runNovarch(['serve', '--store', 'mysql://db/novarch']);
    expect(store.code).toBe(2);
    expect(store.stderr).toContain('Unknown store URL scheme "mysql:"');
  });

  it('--help documents the settings and exit codes', async () => {
    const help = await runNovarch(['serve', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Exit codes of serve:');
    expect(help.stdout).toContain('--listen > $NOVARCH_LISTEN > server.listen > 127.0.0.1:7311');
    expect(help.stdout).toContain(
      '--drain-timeout > $NOVARCH_DRAIN_TIMEOUT_SECONDS > server.drain_timeout_seconds > 30',
    );
    expect(help.stdout).toContain(
      '--public-url > $NOVARCH_PUBLIC_URL > server.public_url > the listen address',
    );
  });
});

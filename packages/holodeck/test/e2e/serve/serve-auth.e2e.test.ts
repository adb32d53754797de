import { statSync } from 'node:fs';
import path from 'node:path';
import { chatReply, type FakeOpenAIServer, startFakeOpenAI, waitUntil } from '@holodeck/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createE2eAgent, type E2eAgent, TEST_API_KEY } from '../support/e2e-agent.js';
import { runHolodeckCli } from '../support/run-holodeck-cli.js';
import { postJson, type ServeProcess, startServe } from './serve-harness.js';

// API keys and CORS of `holodeck serve`: backend-neutral (the serve layer decides before any
// backend is asked), so on the AI SDK backend only, which starts no process per session.

describe('holodeck serve: API keys, ownership and CORS', () => {
  let fake: FakeOpenAIServer;
  let agent: E2eAgent;
  let server: ServeProcess;
  let alice = '';
  let bob = '';
  const keysFile = () => path.join(agent.directory, 'serve-keys.json');
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    agent = createE2eAgent(fake.url, {
      config: {
        model: { provider: 'openai', name: 'gpt-4o', endpoint: fake.baseUrl },
        serve: { cors: { origins: ['https://app.example.com'] } },
      },
      env: { OPENAI_API_KEY: TEST_API_KEY },
    });
    const first = await runHolodeckCli(
      ['serve', 'keys', 'create', '--keys', keysFile(), '--name', 'alice'],
      agent.env,
    );
    expect(first.code).toBe(0);
    alice = first.stdout.trim();
    expect(alice).toMatch(/^hdk_[A-Za-z0-9_-]{43}$/);
    expect(first.stderr).toContain('key "alice" added to');
    expect(first.stderr).toContain('shown once');
    const second = await runHolodeckCli(
      ['serve', 'keys', 'create', '--keys', keysFile(), '--name', 'bob'],
      agent.env,
    );
    bob = second.stdout.trim();
    server = await startServe(agent, ['--keys', keysFile()]);
  });
  afterAll(async () => {
    await server?.stop();
    await fake.close();
  });

  it('keeps only hashes in the keys file, mode 0600', async () => {
    const { readFileSync } = await import('node:fs');
    const text = readFileSync(keysFile(), 'utf8');
    expect(text).not.toContain(alice);
    expect(text).not.toContain(bob);
    expect(JSON.parse(text).keys.map((key: { id: string }) => key.id)).toEqual(['alice', 'bob']);
    expect(statSync(keysFile()).mode & 0o777).toBe(0o600);
    const duplicate = await runHolodeckCli(
      ['serve', 'keys', 'create', '--keys', keysFile(), '--name', 'bob'],
      agent.env,
    );
    expect(duplicate.code).toBe(2);
    expect(duplicate.stderr).toContain('--name: ');
    expect(duplicate.stderr).toContain('already has a key named "bob"');
  });

  it('answers 401 problem+json without a key or with a wrong one; public routes stay open', async () => {
    const none = await postJson(`${server.url}/v1/sessions`, {});
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="holodeck"');
    expect(await none.json()).toMatchObject({
      status: 401,
      detail:
        'this route needs an API key: send Authorization: Bearer <key> (keys are made with holodeck serve keys create)',
    });
    const wrong = await postJson(`${server.url}/v1/sessions`, {}, 'hdk_not-a-key');
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { detail: string }).detail).toBe(
      'the API key is not one this server accepts: check the key, or create one with holodeck serve keys create',
    );
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    expect((await fetch(`${server.url}/openapi.json`)).status).toBe(200);
  });

  it('gives a session to the key that made it: another key gets 404, as for a missing one', async () => {
    fake.script(chatReply('Hello Alice.'));
    const created = await postJson(`${server.url}/v1/sessions`, {}, alice);
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const stolen = await postJson(`${server.url}/v1/sessions/${id}/messages`, { message: 'hi' }, bob);
    expect(stolen.status).toBe(404);
    expect(((await stolen.json()) as { detail: string }).detail).toContain(
      `no session "${id}" for this API key`,
    );
    const deleted = await fetch(`${server.url}/v1/sessions/${id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${bob}` },
    });
    expect(deleted.status).toBe(404);
    const own = await postJson(`${server.url}/v1/sessions/${id}/messages`, { message: 'hi' }, alice);
    expect(await own.json()).toMatchObject({ response: 'Hello Alice.' });
    expect(
      server
        .logLines()
        .find((line) => line.route === '/v1/sessions/{sessionId}/messages' && line.status === 200),
    ).toMatchObject({
      key: 'alice',
      session: id,
    });
    fake.assertComplete();
  });

  it('allows the configured CORS origin only', async () => {
    const allowed = await fetch(`${server.url}/v1/sessions`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
    });
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    const other = await fetch(`${server.url}/health`, { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses a non-loopback host without --allow-remote, and without keys even with it', async () => {
    const remote = await runHolodeckCli(['serve', agent.file, '--host', '0.0.0.0'], agent.env);
    expect(remote.code).toBe(2);
    expect(remote.stderr).toContain('--host: 0.0.0.0 is not a loopback address');
    const noKeys = await runHolodeckCli(
      ['serve', agent.file, '--host', '0.0.0.0', '--allow-remote'],
      agent.env,
    );
    expect(noKeys.code).toBe(2);
    expect(noKeys.stderr).toContain('refusing to serve 0.0.0.0 without API keys');
    expect(noKeys.stderr).toContain('HOLODECK_SERVE_API_KEYS');
    const badProtocols = await runHolodeckCli(['serve', agent.file, '--protocols', 'rest,grpc'], agent.env);
    expect(badProtocols.code).toBe(2);
    expect(badProtocols.stderr).toContain('--protocols: unknown protocol "grpc"');
  });

  it('ends a turn at serve.turn_timeout and an idle session at serve.session_ttl; --log-content logs the message', async () => {
    const limited = createE2eAgent(fake.url, {
      config: {
        model: { provider: 'openai', name: 'gpt-4o', endpoint: fake.baseUrl },
        serve: { turn_timeout: '1s', session_ttl: '2s' },
      },
      env: { OPENAI_API_KEY: TEST_API_KEY },
    });
    const served = await startServe(limited, ['--log-content']);
    try {
      fake.script(chatReply('far too late', { delayMs: 8_000 }), chatReply('Quick.'));
      const id = ((await (await postJson(`${served.url}/v1/sessions`, {})).json()) as { id: string }).id;
      // A delayed answer would complete the turn: failed means the wall-clock limit cut it.
      const slow = (await (
        await postJson(`${served.url}/v1/sessions/${id}/messages`, { message: 'take forever' })
      ).json()) as {
        status: string;
      };
      expect(slow.status).toBe('failed');
      const quick = await postJson(`${served.url}/v1/sessions/${id}/messages`, { message: 'be quick' });
      expect(await quick.json()).toMatchObject({ status: 'completed', response: 'Quick.' });
      // Idle past the TTL (the sweeper runs every TTL/4): the session is gone.
      await waitUntil(async () => (await fetch(`${served.url}/v1/sessions/${id}`)).status === 404, {
        timeoutMs: 10_000,
        what: 'the idle session to be swept (404)',
        intervalMs: 250,
      });
      expect(served.logLines().some((line) => line.content === 'be quick')).toBe(true);
    } finally {
      await served.stop();
      fake.reset();
    }
  });

  it('accepts keys from HOLODECK_SERVE_API_KEYS', async () => {
    const fromEnv = await startServe(agent, [], { HOLODECK_SERVE_API_KEYS: 'one-key, another-key' });
    try {
      expect((await postJson(`${fromEnv.url}/v1/sessions`, {})).status).toBe(401);
      expect((await postJson(`${fromEnv.url}/v1/sessions`, {}, 'another-key')).status).toBe(201);
    } finally {
      await fromEnv.stop();
    }
  });
});

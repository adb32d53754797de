import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { verifyWebhookSignature } from '../../src/notify/webhook-signature.js';
import { agentOverHttp } from './support/agent-over-http.js';
import { RULES_FILE } from './support/gate-fixture.js';
import { type NovarchServerProcess, startServerProcess } from './support/novarch-server-process.js';
import { createSecret, runNovarch } from './support/run-novarch-cli.js';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.js';

// Webhooks on new holds, sent by a real `novarch serve` process to a local receiver: signed with the
// tenant's secret (from the environment), linking to the hold in the console, retried after a 500,
// never delaying the verdict, stopped cleanly by SIGTERM and resumed by the next server.

const SECRET = 'whsec-acme-0123456789abcdef';
const PUBLIC_URL = 'http://novarch.example.test:7311';
const HOOK_PATH = '/hooks/acme-private-path';

let directory = '';
let config = '';
let agentKey = '';
let receiver: WebhookReceiver;
const servers: NovarchServerProcess[] = [];

const HeldSchema = z.object({
  verdict: z.object({ kind: z.literal('hold') }),
  hold: z.object({ id: z.string() }),
});
const PayloadSchema = z.object({
  event: z.string(),
  tenant: z.string(),
  hold: z.object({ id: z.string(), url: z.string() }),
  action: z.object({ recordId: z.string(), amount: z.number() }),
  ruleIds: z.array(z.string()),
});

beforeAll(async () => {
  directory = mkdtempSync(path.join(tmpdir(), 'novarch-webhooks-'));
  config = path.join(directory, 'novarch.yaml');
  writeFileSync(
    config,
    `hold_window_seconds: 60\nrules: [${JSON.stringify(RULES_FILE)}]\nserver:\n  store_url: sqlite:./server.db\n  tenants:\n    acme: {}\n    globex: {}\n`,
  );
  agentKey = await createSecret([
    'keys',
    'create',
    '--config',
    config,
    '--tenant',
    'acme',
    '--name',
    'cs-bot',
  ]);
  receiver = await startWebhookReceiver();
});
afterEach(async () => {
  for (const server of servers.splice(0)) if (server.child.exitCode === null) server.child.kill('SIGKILL');
});
afterAll(() => receiver?.close());

async function startServer(): Promise<NovarchServerProcess> {
  const server = await startServerProcess(
    ['--config', config, '--webhook', `acme=${receiver.url}${HOOK_PATH}`, '--public-url', PUBLIC_URL],
    { NOVARCH_WEBHOOK_SECRET_ACME: SECRET },
  );
  servers.push(server);
  return server;
}

async function holdARefund(server: NovarchServerProcess, customer: string): Promise<string> {
  const agent = agentOverHttp(server.url, agentKey);
  const sessionId = await agent.openSession();
  await agent.lookup(sessionId, customer);
  const answer = await agent.refund(sessionId, customer, 900);
  expect(answer.status).toBe(200);
  return HeldSchema.parse(answer.body).hold.id;
}

function releasable(): { promise: Promise<void>; release(): void } {
  let release = () => {};
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}

describe('webhooks of novarch serve', () => {
  it('a new hold POSTs a signed webhook linking to the console; a 500 is retried; the verdict never waits for it', async () => {
    const server = await startServer();
    expect(server.output()).toContain('webhooks for acme');
    const first = releasable();
    receiver.answer({ status: 500, waitFor: first.promise }, { status: 200 });
    const holdId = await holdARefund(server, 'C1');
    const [request] = await receiver.waitForRequests(1);
    // The receiver has not answered yet, and another hold is judged and answered all the same.
    const second = await holdARefund(server, 'C2');
    expect(second).not.toBe(holdId);
    first.release();
    const received = await receiver.waitForRequests(3);
    const ofFirst = received.filter((item) => PayloadSchema.parse(JSON.parse(item.body)).hold.id === holdId);
    expect(ofFirst).toHaveLength(2);
    // The retry is the same delivery (receivers dedupe on it), signed anew, to the full URL.
    expect(ofFirst[1]?.headers['novarch-delivery']).toBe(request?.headers['novarch-delivery']);
    for (const item of ofFirst) {
      expect(item.path).toBe(HOOK_PATH);
      expect(item.headers['novarch-event']).toBe('hold.created');
      expect(
        verifyWebhookSignature({
          secret: SECRET,
          body: item.body,
          header: item.headers['novarch-signature'] as string,
        }),
      ).toMatchObject({ valid: true });
      expect(
        verifyWebhookSignature({
          secret: 'another-secret-0123456789',
          body: item.body,
          header: item.headers['novarch-signature'] as string,
        }),
      ).toEqual({ valid: false, reason: 'no signature matches the body under the secret' });
    }
    const payload = JSON.parse(ofFirst[0]?.body ?? '');
    // The delivery id travels inside the signed body too (the header alone is not signed).
    expect(payload.deliveryId).toBe(request?.headers['novarch-delivery']);
    expect(payload).toEqual({
      deliveryId: expect.any(String),
      event: 'hold.created',
      tenant: 'acme',
      team: 'cs-ops',
      agent: 'cs-bot',
      sessionId: expect.any(String),
      hold: {
        id: holdId,
        createdAt: expect.any(String),
        deadline: expect.any(String),
        url: `${PUBLIC_URL}/console/holds/${holdId}`,
      },
      action: expect.objectContaining({
        recordId: 'C1',
        amount: 900,
        type: 'issue_refund',
        tool: 'mcp__cs__issue_refund',
      }),
      ruleIds: ['TEAM-2'],
    });
    // Neither the secret nor the URL's private path reach the server's output.
    expect(server.output()).not.toContain(SECRET);
    expect(server.output()).not.toContain(HOOK_PATH);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('SIGTERM while a webhook is in flight: the server waits for it, stops cleanly, and the next server resumes the retry', async () => {
    receiver.received.splice(0);
    const server = await startServer();
    const blocked = releasable();
    receiver.answer({ status: 500, waitFor: blocked.promise }, { status: 200 });
    const holdId = await holdARefund(server, 'C3');
    const [request] = await receiver.waitForRequests(1);
    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The server waits for the request in flight before it closes its store.
    expect(server.child.exitCode).toBe(null);
    blocked.release();
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('novarch serve: stopped; the store is closed');
    expect(receiver.received).toHaveLength(1);

    const next = await startServer();
    const [, retried] = await receiver.waitForRequests(2);
    expect(PayloadSchema.parse(JSON.parse(retried?.body ?? '')).hold.id).toBe(holdId);
    expect(retried?.headers['novarch-delivery']).toBe(request?.headers['novarch-delivery']);
    next.child.kill('SIGTERM');
    expect(await next.exited).toBe(0);
  });
});

describe('webhook settings of novarch serve: each bad one exits 2 with its message', () => {
  const serve = (args: string[], env: Record<string, string> = {}) =>
    runNovarch(['serve', '--config', config, '--listen', '127.0.0.1:0', ...args], env);
  const withSecret = { NOVARCH_WEBHOOK_SECRET_ACME: SECRET };

  it.each([
    [
      ['--webhook', 'acme'],
      withSecret,
      '--webhook: "acme" is not a webhook: write TENANT=URL, e.g. acme=https://hooks.acme.example/novarch',
    ],
    [
      ['--webhook', 'acme=http://127.0.0.1:9/h'],
      {},
      '--webhook: the webhook of tenant "acme" needs its signing secret in $NOVARCH_WEBHOOK_SECRET_ACME (at least 16 characters, e.g. from `openssl rand -hex 32`)',
    ],
    [
      ['--webhook', 'acme=http://127.0.0.1:9/h'],
      { NOVARCH_WEBHOOK_SECRET_ACME: 'short' },
      '--webhook: the webhook of tenant "acme": secret must be at least 16 characters (e.g. the output of `openssl rand -hex 32`).',
    ],
    [
      ['--webhook', 'acme=ftp://127.0.0.1/h'],
      withSecret,
      '--webhook: the webhook of tenant "acme": url must be http: or https:, got ftp:.',
    ],
    [
      ['--webhook', 'initech=http://127.0.0.1:9/h'],
      withSecret,
      '--webhook: tenant "initech" is not served here (server.tenants lists acme, globex)',
    ],
    [
      ['--webhook', 'acme=http://127.0.0.1:9/a', '--webhook', 'acme=http://127.0.0.1:9/b'],
      withSecret,
      '--webhook: tenant "acme" has two webhooks',
    ],
    [
      [],
      { ...withSecret, NOVARCH_WEBHOOKS: 'acme=http://127.0.0.1:9/a,globex' },
      '$NOVARCH_WEBHOOKS: "globex" is not a webhook: write TENANT=URL, e.g. acme=https://hooks.acme.example/novarch',
    ],
    [
      ['--public-url', 'https://novarch.example.com/console'],
      {},
      '--public-url: the public URL must be http(s)://HOST[:PORT] with no path, query or credentials, e.g. https://novarch.example.com',
    ],
    [
      [],
      { NOVARCH_PUBLIC_URL: 'not a url' },
      '$NOVARCH_PUBLIC_URL: the public URL is not a URL: expected e.g. https://novarch.example.com',
    ],
  ])('%j %j', async (args, env, message) => {
    const run = await serve(args, env);
    expect(run.code, run.stdout).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).not.toContain(SECRET);
  });

  it('webhooks on every interface need a public URL for their console link', async () => {
    const run = await runNovarch(
      ['serve', '--config', config, '--listen', '0.0.0.0:0', '--webhook', 'acme=http://127.0.0.1:9/h'],
      { NOVARCH_WEBHOOK_SECRET_ACME: SECRET },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'webhooks link to the console, but --listen listens on every interface (0.0.0.0:0): give the address operators reach the server at with --public-url, $NOVARCH_PUBLIC_URL or server.public_url, e.g. https://novarch.example.com',
    );
  });
});

describe('webhooks and the public URL in novarch.yaml', () => {
  /** A configuration beside the first one (same store), with `server` lines of its own. */
  function configWith(name: string, serverLines: string[]): string {
    const file = path.join(directory, name);
    writeFileSync(
      file,
      [
        'hold_window_seconds: 60',
        `rules: [${JSON.stringify(RULES_FILE)}]`,
        'server:',
        '  store_url: sqlite:./server.db',
        ...serverLines,
        '',
      ].join('\n'),
    );
    return file;
  }

  it('server.public_url and server.tenants.acme.webhook: a new hold POSTs a webhook signed with $NOVARCH_WEBHOOK_SECRET_ACME', async () => {
    receiver.received.splice(0);
    receiver.answer({ status: 200 });
    const file = configWith('novarch-webhooks.yaml', [
      `  public_url: ${PUBLIC_URL}`,
      '  tenants:',
      '    acme:',
      '      webhook:',
      `        url: ${receiver.url}${HOOK_PATH}`,
      '    globex: {}',
    ]);
    const server = await startServerProcess(['--config', file], { NOVARCH_WEBHOOK_SECRET_ACME: SECRET });
    servers.push(server);
    expect(server.output()).toContain(`webhooks for acme (from server.tenants in ${file})`);
    expect(server.output()).toContain(`console at ${PUBLIC_URL}/console`);
    const holdId = await holdARefund(server, 'C4');
    const [request] = await receiver.waitForRequests(1);
    expect(request?.path).toBe(HOOK_PATH);
    expect(
      verifyWebhookSignature({
        secret: SECRET,
        body: request?.body ?? '',
        header: String(request?.headers['novarch-signature']),
      }),
    ).toMatchObject({ valid: true });
    expect(PayloadSchema.parse(JSON.parse(request?.body ?? '')).hold).toEqual({
      id: holdId,
      url: `${PUBLIC_URL}/console/holds/${holdId}`,
    });
    expect(server.output()).not.toContain(SECRET);
    expect(server.output()).not.toContain(HOOK_PATH);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('a webhook of the file whose tenant has no secret variable: exit 2, naming the variable and the line', async () => {
    const file = configWith('novarch-no-secret.yaml', [
      '  tenants:',
      '    acme:',
      '      webhook:',
      '        url: https://hooks.acme.example/novarch',
    ]);
    const run = await runNovarch(['serve', '--config', file, '--listen', '127.0.0.1:0'], {});
    expect(run.code, run.stdout).toBe(2);
    expect(run.stderr).toContain(
      `error: 1 problem in Novarch configuration:\n${file}:7:7  server.tenants.acme.webhook: the webhook of tenant "acme" needs its signing secret in $NOVARCH_WEBHOOK_SECRET_ACME (at least 16 characters, e.g. from \`openssl rand -hex 32\`)\n    hint: a webhook secret is read from the environment only, never from novarch.yaml`,
    );
  });

  it('a secret in the file: exit 2, saying to use the variable; the secret is not shown', async () => {
    const file = configWith('novarch-secret.yaml', [
      '  tenants:',
      '    acme:',
      '      webhook:',
      '        url: https://hooks.acme.example/novarch',
      `        secret: ${SECRET}`,
    ]);
    const run = await runNovarch(['serve', '--config', file, '--listen', '127.0.0.1:0'], {
      NOVARCH_WEBHOOK_SECRET_ACME: SECRET,
    });
    expect(run.code, run.stdout).toBe(2);
    expect(run.stderr).toContain(
      `error: 1 problem in Novarch configuration:\n${file}:9:9  server.tenants.acme.webhook.secret: a webhook's secret is never read from the configuration file: set $NOVARCH_WEBHOOK_SECRET_ACME in the server's environment instead\n    hint: remove this key (and change the secret if this file was shared)`,
    );
    expect(run.stderr).not.toContain(SECRET);
  });

  it('a bad public_url or webhook url of the file: exit 2 with its line and field', async () => {
    const file = configWith('novarch-bad-urls.yaml', [
      '  public_url: https://novarch.example.com/console',
      '  tenants:',
      '    acme: { webhook: { url: "ftp://hooks.acme.example/novarch" } }',
    ]);
    const run = await runNovarch(['serve', '--config', file, '--listen', '127.0.0.1:0'], {
      NOVARCH_WEBHOOK_SECRET_ACME: SECRET,
    });
    expect(run.code, run.stdout).toBe(2);
    expect(run.stderr).toContain(
      `error: 2 problems in Novarch configuration:\n${file}:5:15  server.public_url: must be http(s)://HOST[:PORT] with no path, query or credentials, e.g. https://novarch.example.com\n${file}:7:29  server.tenants.acme.webhook.url: must be http: or https:, got ftp:.`,
    );
  });
});

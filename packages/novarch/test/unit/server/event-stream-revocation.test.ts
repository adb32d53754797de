import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerWorld, type ServerWorld } from './server-fixture.js';

// A revoked operator token's /v1/events stream ends: before the next event it would send, or
// within EVENT_STREAM_RECHECK_MS when nothing happens.

let world: ServerWorld;
beforeAll(async () => {
  world = await createServerWorld();
});
afterAll(() => world.close());

async function readAll(reader: ReadableStreamDefaultReader<Uint8Array>, deadlineMs: number) {
  const decoder = new TextDecoder();
  let received = '';
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const chunk = await Promise.race([
      reader.read(),
      new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), Math.max(0, deadline - Date.now()))),
    ]);
    if (chunk === 'late') return { received, ended: false };
    if (chunk.done) return { received, ended: true };
    received += decoder.decode(chunk.value);
  }
}

describe('the event stream of a revoked token', () => {
  it('ends before sending the next event', async () => {
    const key = await world.agentKey('acme');
    const ana = await world.stores.identities.createOperatorToken({
      name: 'ana',
      role: 'operator',
      grants: [{ tenantId: 'acme' }],
    });
    const bob = await world.operatorToken('bob', [{ tenantId: 'acme' }]);
    const stream = await world.call('GET', '/v1/events', ana.secret);
    const reader = stream.body?.getReader();
    if (reader === undefined) throw new Error('no stream body');
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('event: ready');
    await world.stores.identities.revokeOperatorToken(ana.info.id);
    const opened = (await (
      await world.call('POST', '/v1/sessions', key, { teamId: 'cs-ops', agentId: 'cs-bot' })
    ).json()) as { id: string };
    expect((await world.call('POST', `/v1/sessions/${opened.id}/kill`, bob, { reason: 'stop' })).status).toBe(
      200,
    );
    const rest = await readAll(reader, 10_000);
    expect(rest.ended).toBe(true);
    expect(rest.received).not.toContain('session-killed');
  });

  it('ends while idle, at the next check', async () => {
    const ana = await world.stores.identities.createOperatorToken({
      name: 'ana2',
      role: 'operator',
      grants: [{ tenantId: 'acme' }],
    });
    const stream = await world.call('GET', '/v1/events', ana.secret);
    const reader = stream.body?.getReader();
    if (reader === undefined) throw new Error('no stream body');
    await reader.read();
    await world.stores.identities.revokeOperatorToken(ana.info.id);
    expect((await readAll(reader, 15_000)).ended).toBe(true);
  }, 20_000);
});

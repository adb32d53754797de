import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServerWorld, refundProposal, type ServerWorld } from './server-fixture.js';

// GET /v1/audit/verify: the chains an operator may see whole, checked on the server's store.

let world: ServerWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('GET /v1/audit/verify', () => {
  it("verifies the tenants an operator holds whole; a team grant cannot verify its tenant's chain", async () => {
    world = await createServerWorld();
    const acme = await world.agentKey('acme');
    const globex = await world.agentKey('globex');
    for (const key of [acme, globex]) {
      const opened = await world.call('POST', '/v1/sessions', key, { teamId: 'cs-ops', agentId: 'cs-bot' });
      const session = z.object({ id: z.string() }).parse(await opened.json());
      expect(
        (await world.call('POST', `/v1/sessions/${session.id}/actions`, key, refundProposal('C1', 20)))
          .status,
      ).toBe(200);
    }
    const whole = await world.operatorToken('ana', [{ tenantId: 'acme' }]);
    const answer = await world.call('GET', '/v1/audit/verify', whole);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({
      intact: true,
      chains: [
        { chain: 'tenant:acme', links: 1, head: expect.objectContaining({ position: 1 }), problems: [] },
      ],
    });

    const teamOnly = await world.operatorToken('bo', [{ tenantId: 'acme', teamId: 'cs-ops' }]);
    const refused = await world.call('GET', '/v1/audit/verify?tenantId=acme', teamOnly);
    expect(refused.status).toBe(403);
    expect(z.object({ detail: z.string() }).parse(await refused.json()).detail).toBe(
      'verifying tenant "acme" needs a grant over the whole tenant: its chain covers every team of it',
    );
    expect(await (await world.call('GET', '/v1/audit/verify', teamOnly)).json()).toEqual({
      intact: true,
      chains: [],
    });

    const everyone = await world.operatorToken('root', [{ tenantId: '*' }]);
    const all = z
      .object({ chains: z.array(z.object({ chain: z.string() })) })
      .parse(await (await world.call('GET', '/v1/audit/verify', everyone)).json());
    expect(all.chains.map((chain) => chain.chain)).toEqual(['tenant:acme', 'tenant:globex']);
    expect((await world.call('GET', '/v1/audit/verify', acme)).status).toBe(403);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORY_RULES } from '../../store/history-scenario.js';
import { createServerWorld, refundProposal, type ServerWorld } from './server-fixture.js';

// History conditions judged by the server: its engine works on the request's tenant-scoped store,
// which answers history queries for the actions the request recorded.
let world: ServerWorld;
beforeAll(async () => {
  world = await createServerWorld();
  await world.stores.store.pushRuleSet({ team: 'cs-ops', content: HISTORY_RULES, pushedBy: 'ana' });
});
afterAll(() => world.close());

describe('history conditions on the server', () => {
  it('holds a customer’s third refund of the day and records the shadow outcome', async () => {
    const key = await world.agentKey('acme');
    const opened = await world.call('POST', '/v1/sessions', key, { teamId: 'cs-ops', agentId: 'cs-bot' });
    const { id } = (await opened.json()) as { id: string };
    const kinds: string[] = [];
    let last:
      | { verdict: { kind: string; citations: { rationale: string; shadow?: { decision: string }[] } } }
      | undefined;
    for (let index = 0; index < 3; index++) {
      const response = await world.call('POST', `/v1/sessions/${id}/actions`, key, refundProposal('C1', 100));
      expect(response.status).toBe(200);
      last = (await response.json()) as typeof last;
      kinds.push(last?.verdict.kind ?? 'none');
    }
    expect(kinds).toEqual(['pass', 'pass', 'hold']);
    expect(last?.verdict.citations.rationale).toContain(
      'LIMIT-1 v1 (hold): No more than 2 refunds per customer per day.',
    );
    expect(last?.verdict.citations.shadow?.map((outcome) => outcome.decision)).toEqual(['hold']);
  });
});

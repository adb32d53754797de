import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../src/backends/contract/index.js';
import { ElicitationBroker } from '../../../src/backends/elicitation-broker.js';

const question = {
  server: 'bookings',
  message: 'Your password?',
  mode: 'form' as const,
  requestedSchema: { type: 'object', properties: { password: { type: 'string' } } },
};

describe('ElicitationBroker', () => {
  it('declines by default and records it as the policy, with nothing asked', async () => {
    const events: SessionEvent[] = [];
    const answer = await new ElicitationBroker().elicit(question, (event) => events.push(event));
    expect(answer).toEqual({ action: 'decline' });
    expect(events).toEqual([
      {
        type: 'elicitation-resolved',
        elicitation: {
          id: 'elicitation-1',
          server: 'bookings',
          message: 'Your password?',
          mode: 'form',
          fields: [],
          action: 'decline',
          answeredBy: 'policy',
        },
      },
    ]);
  });

  it('asks under ask; the record names the fields, never their values', async () => {
    const events: SessionEvent[] = [];
    const broker = new ElicitationBroker('ask');
    const answering = broker.elicit(question, (event) => {
      events.push(event);
      if (event.type === 'elicitation-request')
        event.request.respond({ action: 'accept', content: { password: 'hunter2' } });
    });
    expect(await answering).toEqual({ action: 'accept', content: { password: 'hunter2' } });
    expect(events.map((event) => event.type)).toEqual(['elicitation-request', 'elicitation-resolved']);
    expect(JSON.stringify(events[1])).not.toContain('hunter2');
    expect(events[1]).toMatchObject({
      elicitation: { fields: ['password'], action: 'accept', answeredBy: 'user' },
    });
  });

  it('declines under ask when there is no turn to ask in; an abort or cancelPending cancels a wait', async () => {
    const broker = new ElicitationBroker('ask');
    expect(await broker.elicit(question, undefined)).toEqual({ action: 'decline' });
    const controller = new AbortController();
    const aborted = broker.elicit(question, () => {}, controller.signal);
    controller.abort();
    expect(await aborted).toEqual({ action: 'cancel' });
    const pending = broker.elicit(question, () => {});
    broker.cancelPending();
    expect(await pending).toEqual({ action: 'cancel' });
  });
});

import { describe, expect, it } from 'vitest';
import { outgoingOf } from '../../../src/recording/outgoing-request.js';

/** What fetch itself makes of the call: the reference the fast path must agree with. */
async function viaRequest(input: string | URL, init?: RequestInit) {
  const request = new Request(input, init);
  return { method: request.method, url: request.url, body: request.body ? await request.text() : '' };
}

describe('the request of a recorded fetch call', () => {
  const calls: [string, string | URL, RequestInit | undefined][] = [
    ['a JSON POST', 'http://127.0.0.1:9/v1/chat/completions', { method: 'POST', body: '{"model":"m"}' }],
    ['a lower-case method', 'http://127.0.0.1:9/v1/embeddings', { method: 'post', body: '{}' }],
    ['a URL object and no init', new URL('http://127.0.0.1:9/v1/models'), undefined],
    ['a bare origin', 'http://127.0.0.1:9', { method: 'GET' }],
  ];
  it.each(calls)('%s reads as fetch would read it', async (_name, input, init) => {
    const { outgoing } = await outgoingOf(input, init);
    expect(outgoing).toEqual(await viaRequest(input, init));
  });

  it('reads a body that is not a string through a Request, and still sends it whole', async () => {
    const body = new TextEncoder().encode('{"input":["a"]}');
    const { outgoing, forward } = await outgoingOf('http://127.0.0.1:9/v1/embeddings', {
      method: 'POST',
      body,
    });
    expect(outgoing).toEqual({
      method: 'POST',
      url: 'http://127.0.0.1:9/v1/embeddings',
      body: '{"input":["a"]}',
    });
    const sent: string[] = [];
    await forward(async (input) => {
      sent.push(await (input as Request).text());
      return new Response('ok');
    });
    expect(sent).toEqual(['{"input":["a"]}']);
  });

  it('sends a string-body call on unchanged', async () => {
    const init = { method: 'POST', body: '{"model":"m"}', headers: { authorization: 'Bearer k' } };
    const { forward } = await outgoingOf('http://127.0.0.1:9/v1/chat/completions', init);
    const seen: unknown[] = [];
    await forward(async (input, given) => {
      seen.push(input, given);
      return new Response('ok');
    });
    expect(seen).toEqual(['http://127.0.0.1:9/v1/chat/completions', init]);
  });
});

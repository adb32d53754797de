import type { OutgoingRequest } from './canonicalise-request.js';

/** A fetch call as the recorder sees it: the request to match, and how to send it live. */
export interface FetchCall {
  outgoing: OutgoingRequest;
  forward(upstream: typeof fetch): Promise<Response>;
}

/**
 * Reads the request of a fetch call. The clients HoloDeck records (AI SDK, judges, embeddings) send
 * a string body to a URL: that is read as is, without building a Request and copying its body
 * stream (a measurable share of a recorded run's CPU); anything else goes through a Request.
 */
export async function outgoingOf(input: string | URL | Request, init?: RequestInit): Promise<FetchCall> {
  const body = init?.body ?? '';
  if (!(input instanceof Request) && typeof body === 'string') {
    const outgoing = { method: (init?.method ?? 'GET').toUpperCase(), url: new URL(input).href, body };
    return { outgoing, forward: (upstream) => upstream(input, init) };
  }
  const request = new Request(input, init);
  const text = request.body ? await request.clone().text() : '';
  return {
    outgoing: { method: request.method, url: request.url, body: text },
    forward: (upstream) => upstream(request),
  };
}

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer } from 'node:net';

/** One scripted answer of the test server. */
export interface ScriptedResponse {
  /** Default 200. */
  status?: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as is. */
  body?: unknown;
  /** Wait this long before answering (the client may give up first). */
  delayMs?: number;
  /** Drop the connection instead of answering (a network error for the client). */
  destroy?: boolean;
}

/** A request the test server received. */
export interface RecordedHttpRequest {
  method: string;
  /** Path and query, e.g. `/openai/deployments/d/chat/completions?api-version=x`. */
  url: string;
  headers: Readonly<Record<string, string>>;
  /** The parsed JSON body (undefined when it is not JSON). */
  body: unknown;
  receivedAt: number;
}

/** An HTTP server on 127.0.0.1 that answers from a per-test script and records every request. */
export interface ScriptedServer {
  readonly url: string;
  readonly requests: readonly RecordedHttpRequest[];
  script(...responses: ScriptedResponse[]): void;
  /** Throws when scripted answers are left unused or a request came in past the script. */
  assertComplete(): void;
  reset(): void;
  close(): Promise<void>;
}

function flatHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Starts the server; one per test file, `reset()` between tests. */
export async function startScriptedServer(): Promise<ScriptedServer> {
  const requests: RecordedHttpRequest[] = [];
  let steps: ScriptedResponse[] = [];
  let overflow = 0;

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    requests.push({
      method: request.method ?? '',
      url: request.url ?? '',
      headers: flatHeaders(request),
      body: parseBody(Buffer.concat(chunks).toString('utf8')),
      receivedAt: Date.now(),
    });
    const step = steps.shift();
    if (step === undefined) {
      overflow++;
      response.writeHead(500, { 'content-type': 'application/json', 'x-should-retry': 'false' });
      response.end(
        JSON.stringify({ error: { type: 'api_error', message: 'scripted-server: script exhausted' } }),
      );
      return;
    }
    if (step.delayMs !== undefined) {
      const delay = step.delayMs;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        response.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      if (response.destroyed) return;
    }
    if (step.destroy === true) {
      request.socket.destroy();
      return;
    }
    const isText = typeof step.body === 'string';
    response.writeHead(step.status ?? 200, {
      'content-type': isText ? 'text/plain' : 'application/json',
      ...step.headers,
    });
    response.end(isText ? step.body : JSON.stringify(step.body ?? {}));
  }

  const server = createServer((request, response) => {
    void answer(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');

  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    script: (...responses) => {
      steps.push(...responses);
    },
    assertComplete() {
      if (steps.length > 0 || overflow > 0) {
        throw new Error(
          `scripted-server: ${steps.length} answers unused, ${overflow} requests past the script`,
        );
      }
    },
    reset() {
      steps = [];
      overflow = 0;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on: bound by a server that is closed again. */
export async function closedPort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { errorMessage } from '../support.js';
import type { OutgoingRequest } from './canonicalise-request.js';
import type { RecordingScope } from './recording-scope.js';

type Exchange = (scope: RecordingScope, request: OutgoingRequest & { headers: Headers }) => Promise<Response>;

/** Request headers not forwarded: they describe this hop, not the request. */
const HOP_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'accept-encoding',
]);

interface Route {
  scope: RecordingScope;
  upstream: string;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The loopback HTTP proxy the Claude CLI reaches through `ANTHROPIC_BASE_URL`
 * (`http://127.0.0.1:PORT/r/<token>`). The token names the scope (case, attempt) of the process it
 * was handed to and the upstream base URL that live requests go to. Only 127.0.0.1 is listened on.
 */
export class RecordingProxy {
  private readonly routes = new Map<string, Route>();

  private constructor(
    private readonly server: Server,
    private readonly port: number,
  ) {}

  static async listen(exchange: Exchange): Promise<RecordingProxy> {
    let proxy: RecordingProxy | undefined;
    const server = createServer((request, response) => {
      void proxy?.handle(request, response, exchange);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    proxy = new RecordingProxy(server, (server.address() as AddressInfo).port);
    return proxy;
  }

  /** A base URL whose requests belong to `scope` and, live, go to `upstream`. */
  routeFor(scope: RecordingScope, upstream: string): string {
    const token = randomBytes(12).toString('hex');
    this.routes.set(token, { scope, upstream: upstream.replace(/\/+$/, '') });
    return `http://127.0.0.1:${this.port}/r/${token}`;
  }

  private async handle(
    request: IncomingMessage,
    response: ServerResponse,
    exchange: Exchange,
  ): Promise<void> {
    const match = /^\/r\/([0-9a-f]+)(\/.*)?$/.exec(request.url ?? '');
    const route = match?.[1] ? this.routes.get(match[1]) : undefined;
    if (!route) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          type: 'error',
          error: { type: 'not_found_error', message: 'unknown HoloDeck recording route' },
        }),
      );
      return;
    }
    try {
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (HOP_HEADERS.has(name) || value === undefined) continue;
        headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      const body = await readBody(request);
      const answer = await exchange(route.scope, {
        method: request.method ?? 'GET',
        url: `${route.upstream}${match?.[2] ?? '/'}`,
        headers,
        body,
      });
      const outgoing: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        outgoing[name] = value;
      });
      response.writeHead(answer.status, outgoing);
      if (!answer.body) {
        response.end();
        return;
      }
      Readable.fromWeb(answer.body as import('node:stream/web').ReadableStream<Uint8Array>).pipe(response);
    } catch (error) {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          type: 'error',
          error: {
            type: 'api_error',
            message: `HoloDeck recording proxy: ${errorMessage(error)}`,
          },
        }),
      );
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

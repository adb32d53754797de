import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { errorMessage } from '../support.js';
import type { TrafficScope } from '../tools/run-traffic.js';
import type { OutgoingRequest } from './canonicalise-request.js';
import { type ExchangeAnswer, replayChunks } from './recorded-response.js';

type Exchange = (
  scope: TrafficScope,
  request: OutgoingRequest & { headers: Record<string, string> },
) => Promise<ExchangeAnswer>;

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
  /** The scope of the process's requests, known once the route is claimed. */
  scope: Promise<TrafficScope>;
  upstream: string;
}

/** A route of the proxy: the base URL a process is started with, and the claim that binds it to a scope. */
export interface ProxyRoute {
  baseUrl: string;
  /** From now on (and for requests already waiting) the route's requests belong to `scope`. */
  claim(scope: TrafficScope): void;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The loopback HTTP proxy the Claude CLI reaches through `ANTHROPIC_BASE_URL`
 * (`http://127.0.0.1:PORT/r/<token>`). The token names the route of one process: the upstream base
 * URL live requests go to, and the scope (case, attempt) its requests belong to, decided when the
 * route is claimed: at once for a process started for a run, when a run takes it for a pre-warmed
 * spare (started before its case was known). A request on a route not claimed yet waits for the
 * claim. Only 127.0.0.1 is listened on.
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

  /** A route whose requests, live, go to `upstream`; they belong to the scope it is claimed for. */
  routeFor(upstream: string): ProxyRoute {
    const token = randomBytes(12).toString('hex');
    let claim: (scope: TrafficScope) => void = () => {};
    const scope = new Promise<TrafficScope>((resolve) => {
      claim = resolve;
    });
    this.routes.set(token, { scope, upstream: upstream.replace(/\/+$/, '') });
    return { baseUrl: `http://127.0.0.1:${this.port}/r/${token}`, claim };
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
      // A plain object, not fetch's Headers: a replayed run then never loads fetch (~10 MB).
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (HOP_HEADERS.has(name) || value === undefined) continue;
        headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      const body = await readBody(request);
      const exchanged = await exchange(await route.scope, {
        method: request.method ?? 'GET',
        url: `${route.upstream}${match?.[2] ?? '/'}`,
        headers,
        body,
      });
      if ('recorded' in exchanged) {
        const { recorded } = exchanged;
        response.writeHead(recorded.status, recorded.headers);
        for (const chunk of replayChunks(recorded)) response.write(chunk);
        response.end();
        return;
      }
      const answer = exchanged.live;
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

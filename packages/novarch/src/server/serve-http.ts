import type { Server as HttpServer, IncomingMessage, ServerResponse } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import { NovarchError } from '../errors.js';
import { problemAsResponse } from './problem-response.js';

/** The HTTP server of `startNovarchServer`, listening, and the responses it has not finished sending. */
export interface ServingHttp {
  server: HttpServer;
  responses: OpenResponses;
}

/**
 * Listens on `host:port` and hands each request to `handle`, or answers 503 once `shutdown` is
 * aborted. Rejects with the reason the address cannot be listened on.
 */
export async function serveHttp(options: {
  host: string;
  port: number;
  shutdown: AbortSignal;
  handle: (request: Request) => Promise<Response>;
}): Promise<ServingHttp> {
  const server = createAdaptorServer({
    hostname: options.host,
    port: options.port,
    fetch: async (request: Request) => {
      if (options.shutdown.aborted)
        return problemAsResponse({
          type: 'about:blank',
          title: 'Service Unavailable',
          status: 503,
          detail: 'the server is shutting down',
        });
      return options.handle(request);
    },
  }) as HttpServer;
  const responses = new OpenResponses(server);
  await listen(server, options.host, options.port);
  return { server, responses };
}

/** The port `server` listens on and its `http://HOST:PORT`. */
export function listeningAddress(server: HttpServer, host: string): { port: number; url: string } {
  const address = server.address();
  if (address === null || typeof address === 'string')
    throw new NovarchError('the server listens on no TCP port');
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return { port: address.port, url: `http://${urlHost}:${address.port}` };
}

function listen(server: HttpServer, host: string, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        new NovarchError(
          error.code === 'EADDRINUSE'
            ? `cannot listen on ${host}:${port}: the address is in use (another novarch serve?); choose another with --listen HOST:PORT`
            : `cannot listen on ${host}:${port}: ${error.message}`,
        ),
      );
    });
    server.listen(port, host, () => resolve());
  });
}

/**
 * Responses not yet fully sent (a verdict being judged, a long-poll, an event stream): a shutdown
 * waits for them, so no stored decision is left unanswered.
 */
export class OpenResponses {
  readonly #open = new Set<ServerResponse>();
  #drained: (() => void) | undefined;

  constructor(server: HttpServer) {
    server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
      this.#open.add(response);
      response.once('close', () => {
        this.#open.delete(response);
        if (this.#open.size === 0) this.#drained?.();
      });
    });
  }

  get size(): number {
    return this.#open.size;
  }

  /** Settles when no response is open. */
  allAnswered(): Promise<void> {
    return this.#open.size === 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          this.#drained = resolve;
        });
  }
}

import { createServer, type Server } from 'node:http';

/** A Node HTTP server listening on 127.0.0.1, with the address a fake hands to its clients. */
export interface LoopbackServer {
  readonly server: Server;
  readonly port: number;
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
}

/** Starts an HTTP server on 127.0.0.1 (`port` 0 picks a free one) and resolves once it listens. */
export async function listenOnLoopback(port = 0): Promise<LoopbackServer> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('server is not listening on TCP');
  return { server, port: address.port, url: `http://127.0.0.1:${address.port}` };
}

/**
 * Closes the server without waiting for idle keep-alive connections to time out (the CLI and the
 * AI SDK keep theirs open).
 */
export function closeLoopbackServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}

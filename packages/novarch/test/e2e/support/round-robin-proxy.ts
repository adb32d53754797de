import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A loopback load balancer: each request goes to the next target in turn. */
export interface RoundRobinProxy {
  url: string;
  /** Which target answered each request, in order (its index in `targets`). */
  served: number[];
  close(): Promise<void>;
}

/**
 * An HTTP proxy on 127.0.0.1 that sends each request to the next of `targets` (round robin), as a
 * load balancer in front of several `novarch serve` does. A target that refuses the connection
 * (its process is gone) is skipped for that request, as a balancer's health check would; a target
 * that dies mid-request makes the request fail (502: nothing is retried, a POST is not idempotent).
 */
export async function startRoundRobinProxy(targets: readonly string[]): Promise<RoundRobinProxy> {
  const served: number[] = [];
  let next = 0;
  const forward = (incoming: IncomingMessage, outgoing: ServerResponse, body: Buffer, tries: number) => {
    const index = next++ % targets.length;
    const target = new URL(targets[index] ?? '');
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        // The Host header is kept, as a load balancer keeps it: the console checks Origin against it.
        headers: incoming.headers,
      },
      (answer) => {
        served.push(index);
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
        answer.on('error', () => outgoing.destroy());
      },
    );
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED' && tries < targets.length) {
        forward(incoming, outgoing, body, tries + 1);
        return;
      }
      if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' }).end(error.message);
      else outgoing.destroy();
    });
    upstream.end(body);
  };
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => forward(incoming, outgoing, Buffer.concat(chunks), 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

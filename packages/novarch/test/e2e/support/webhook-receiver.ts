import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One webhook request as the receiver saw it. */
export interface ReceivedWebhook {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

/** How the receiver answers a request: a status, after `waitFor` when given. */
export type WebhookAnswer = { status: number; waitFor?: Promise<void> };

/** A local HTTP receiver of webhooks that records every request and answers as told. */
export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Sets how the next requests are answered (in order; then the last one again). */
  answer(...answers: WebhookAnswer[]): void;
  /** Resolves once `count` requests arrived (rejects after `timeoutMs`). */
  waitForRequests(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  let answers: WebhookAnswer[] = [{ status: 200 }];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      received.push({
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      const answer = (answers.length > 1 ? answers.shift() : answers[0]) ?? { status: 200 };
      await answer.waitFor;
      response.writeHead(answer.status, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answer(...next) {
      answers = next;
    },
    async waitForRequests(count, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline)
          throw new Error(
            `the receiver got ${received.length} webhook(s), not ${count}, within ${timeoutMs} ms`,
          );
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return received.slice(0, count);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

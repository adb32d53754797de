import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { ConsoleWorld } from '../../console-support/console-world.js';

/** The console of a world on a real loopback port (as `novarch serve` would serve it). */
export async function serveConsole(world: ConsoleWorld): Promise<{ url: string; close(): Promise<void> }> {
  let server: ReturnType<typeof serve> | undefined;
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch: world.app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) =>
      resolve(info.port),
    );
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        const http = server as import('node:http').Server;
        // Live event streams keep their connections open: end them, or close() waits forever.
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

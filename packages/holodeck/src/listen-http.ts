import { serve } from '@hono/node-server';
import { UsageError } from './errors.js';

/** A Node HTTP server of @hono/node-server, listening. */
export type ListeningServer = ReturnType<typeof serve>;

/**
 * Serves `fetch` on host:port (the view and `holodeck serve`). A port in use or an address this
 * machine does not have is the user's error, named by its flag; `portHint` says how to pick
 * another port for this command.
 */
export function listenHttp(
  fetch: (request: Request) => Response | Promise<Response>,
  host: string,
  port: number,
  portHint: string,
): Promise<ListeningServer> {
  return new Promise<ListeningServer>((resolve, reject) => {
    const started = serve({ fetch, port, hostname: host }, () => resolve(started));
    started.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE')
        reject(new UsageError('--port', `port ${port} on ${host} is in use`, portHint));
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND')
        reject(
          new UsageError(
            '--host',
            `cannot listen on ${host} (${error.code})`,
            'give an address of this machine',
          ),
        );
      else reject(error);
    });
  });
}

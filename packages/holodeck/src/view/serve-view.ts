import type { AddressInfo } from 'node:net';
import { UsageError } from '../errors.js';
import { listenHttp } from '../listen-http.js';
import { isLoopbackHost } from '../loopback-host.js';
import { createViewApp } from './view-app.js';
import type { ViewLabelWriter } from './view-label-routes.js';

/** Options of `holodeck test view`. */
export interface ServeViewOptions {
  runsDir: string;
  /** 0 (default): a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Needed for a host that is not a loopback address: the runs (answers, tool results) become reachable. */
  allowRemote?: boolean;
  /** Lets the case page write calibration labels (`--writable`); loopback hosts only. */
  labels?: ViewLabelWriter;
  /** Called with a warning to show the user (a non-local host). */
  onWarning?: (message: string) => void;
}

/** A running view server. */
export interface ViewServer {
  url: string;
  /** Stops listening and ends open connections (live-update streams included). */
  close(): Promise<void>;
}

export { isLoopbackHost };

/**
 * Starts the view server on `host:port` and resolves once it listens. A non-loopback host is a
 * UsageError without `allowRemote`, and a warning with it; then the Host-header guard accepts any
 * host, since the user chose to serve the network.
 */
export async function serveView(options: ServeViewOptions): Promise<ViewServer> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 0;
  const local = isLoopbackHost(host);
  if (!local && !options.allowRemote)
    throw new UsageError(
      '--host',
      `${host} is not a loopback address: anyone who can reach it could read every saved run (answers, tool results, the agent configuration)`,
      'add --allow-remote to serve it anyway, or leave --host out to serve 127.0.0.1 only',
    );
  if (!local && options.labels)
    throw new UsageError(
      '--writable',
      `the viewer writes labels files only when it listens on a loopback address, not ${host}`,
      'leave --host out (127.0.0.1), or leave --writable out to serve read-only',
    );
  if (!local)
    options.onWarning?.(
      `serving on ${host}: anyone who can reach this address can read every saved run; there is no authentication.`,
    );
  const view = createViewApp({
    runsDir: options.runsDir,
    ...(local ? {} : { allowedHosts: 'any' as const }),
    ...(options.labels ? { labels: options.labels } : {}),
  });
  await view.catalog.refresh();
  const server = await listenHttp(
    view.app.fetch,
    host,
    port,
    'pick another port, or leave --port out for a free one',
  );
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        view.close();
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
}

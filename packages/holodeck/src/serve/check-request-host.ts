import { isLoopbackHost } from '../loopback-host.js';
import { ServeProblem } from './serve-problem.js';

/** Where a request may come from on a server bound to a loopback address. */
export interface HostGuard {
  /** Host names besides the loopback ones (serve.allowed_hosts), lowercase. */
  allowedHosts: readonly string[];
  /** Origins a browser frontend may call from (serve.cors.origins). */
  corsOrigins: readonly string[];
}

function hostnameOf(host: string): string {
  // "[::1]:8000" → "::1"; "localhost:8000" → "localhost".
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(host);
  if (bracketed?.[1]) return bracketed[1].toLowerCase();
  return host.replace(/:\d+$/, '').toLowerCase();
}

function originHostname(origin: string): string | undefined {
  try {
    return new URL(origin).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * DNS rebinding protection of a loopback-bound server: a page of another site whose name was made
 * to resolve to 127.0.0.1 reaches the server with its own name in `Host` (and `Origin`). A request
 * whose Host is not a loopback name or one of serve.allowed_hosts, or whose Origin is neither of
 * those nor an allowed CORS origin, is refused with 403 before any route runs.
 */
export function checkRequestHost(
  guard: HostGuard,
  host: string | undefined,
  origin: string | undefined,
): void {
  const allowed = (name: string) => isLoopbackHost(name) || guard.allowedHosts.includes(name);
  const name = host === undefined ? undefined : hostnameOf(host);
  if (name === undefined || !allowed(name))
    throw new ServeProblem(
      403,
      `Host "${host ?? ''}" is not a name of this server: a server on a loopback address answers only localhost, 127.0.0.1 and ::1 (DNS rebinding protection); add the name to serve.allowed_hosts if a proxy on this machine forwards it`,
    );
  if (origin === undefined || origin === 'null') return;
  const originName = originHostname(origin);
  if (guard.corsOrigins.includes('*') || guard.corsOrigins.includes(origin)) return;
  if (originName !== undefined && allowed(originName)) return;
  throw new ServeProblem(
    403,
    `Origin "${origin}" may not call this server: add it to serve.cors.origins to allow a browser frontend there`,
  );
}

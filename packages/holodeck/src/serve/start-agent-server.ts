import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { backendProfile, selectBackend } from '../backends/select-backend.js';
import type { LoadedAgent } from '../config/index.js';
import type { ServeProtocol } from '../config/schema/serve-config-schema.js';
import { UsageError } from '../errors.js';
import { listenHttp } from '../listen-http.js';
import { loadAgent } from '../load-agent.js';
import { isLoopbackHost } from '../loopback-host.js';
import { API_KEYS_VARIABLE, ApiKeys } from './api-keys.js';
import { buildServeOpenApi } from './build-serve-openapi.js';
import { coreRoutes } from './core-routes.js';
import { createServeApp } from './create-serve-app.js';
import { protocolRoutes } from './protocol-routes.js';
import { requestLogger } from './request-log.js';
import { resolveServeSettings, type ServeSettings } from './resolve-serve-settings.js';
import { SavedSessions } from './saved-sessions.js';
import { serveMetricsPlan } from './serve-metrics.js';
import type { ServeRoute } from './serve-route.js';
import type { ServeServices } from './serve-services.js';
import { serveTracingPlan } from './serve-tracing.js';
import { SessionRegistry } from './session-registry.js';
import { startServeTelemetry } from './start-serve-telemetry.js';
import { observeAll } from './turn-observer.js';

/** Options of `holodeck serve` (the CLI's flags, parsed). */
export interface ServeOptions {
  agentFile: string;
  /** Default 8000; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Needed for a host that is not a loopback address (and then API keys are required). */
  allowRemote?: boolean;
  /** The keys file (`holodeck serve keys create`). */
  keysFile?: string;
  /** Overrides serve.protocols. */
  protocols?: ServeProtocol[];
  /** This instance's name in session ids (default: derived from the host name and port). */
  instanceId?: string;
  /** Put user messages in the request log. */
  logContent?: boolean;
  /** The environment (API keys variable, the agent's ${VAR}s). Default process.env. */
  env?: Record<string, string | undefined>;
  /** Where request log lines go. Default stdout. */
  logOutput?: NodeJS.WritableStream & { isTTY?: boolean };
  /** Start-up notes and unexpected errors. Default stderr. */
  onMessage?: (message: string) => void;
}

/** A running `holodeck serve`. */
export interface AgentServer {
  url: string;
  settings: ServeSettings;
  instanceId: string;
  /** SIGTERM: /ready turns false, nothing new is accepted, turns drain, every session ends. */
  shutdown(drainMs: number): Promise<void>;
}

/** The host to listen on and the API keys: a host that is not a loopback one needs --allow-remote and keys. */
function serveHostAndKeys(
  options: ServeOptions,
  env: Record<string, string | undefined>,
): { host: string; local: boolean; keys: ApiKeys } {
  const host = options.host ?? '127.0.0.1';
  const local = isLoopbackHost(host);
  if (!local && !options.allowRemote)
    throw new UsageError(
      '--host',
      `${host} is not a loopback address: anyone who can reach it could talk to the agent`,
      'add --allow-remote (with API keys) to serve it anyway, or leave --host out to serve 127.0.0.1 only',
    );
  const keys = ApiKeys.load(options.keysFile, env[API_KEYS_VARIABLE]);
  if (!local && !keys.enabled)
    throw new UsageError(
      '--host',
      `refusing to serve ${host} without API keys: anyone who can reach it could run the agent`,
      `give --keys FILE (holodeck serve keys create --keys FILE) or set ${API_KEYS_VARIABLE}`,
    );
  return { host, local, keys };
}

/** agent.yaml, its ${VAR}s from options.env when given. */
function loadServedAgent(options: ServeOptions) {
  return loadAgent(
    options.agentFile,
    options.env
      ? {
          env: Object.fromEntries(
            Object.entries(options.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
          ),
        }
      : {},
  );
}

/**
 * Starts listening before the backend is initialised (/health answers, /ready is 503), and before
 * the instance id is known when the port is chosen by the system. `serve` swaps in the app.
 */
async function listenStarting(
  options: ServeOptions,
  host: string,
): Promise<{
  server: Awaited<ReturnType<typeof listenHttp>>;
  url: string;
  instanceId: string;
  serve(app: (request: Request) => Response | Promise<Response>): void;
}> {
  const port = options.port ?? 8000;
  let handle: (request: Request) => Response | Promise<Response> = () =>
    new Response(null, { status: 503, headers: { 'retry-after': '1' } });
  const server = await listenHttp(
    (request) => handle(request),
    host,
    port,
    'pick another port with --port (0: a free one)',
  );
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${shown}:${address.port}/`;
  const instanceId = options.instanceId ?? defaultInstanceId(address.port);
  if (!/^[a-z0-9-]{1,40}$/.test(instanceId)) {
    server.close();
    throw new UsageError(
      '--instance-id',
      `"${instanceId}" is not an instance name`,
      'use 1-40 lowercase letters, digits and "-"',
    );
  }
  return {
    server,
    url,
    instanceId,
    serve: (app) => {
      handle = app;
    },
  };
}

/** What the HTTP app of serve is made of. */
interface ServeAppParts {
  agent: LoadedAgent;
  backend: string;
  registry: SessionRegistry;
  keys: ApiKeys;
  settings: ServeSettings;
  /** Serving a loopback host: the Host header is checked against settings.allowedHosts. */
  local: boolean;
  url: string;
  phase: ServeServices['phase'];
  options: ServeOptions;
  note: (message: string) => void;
}

/** The app over the session registry: the routes of the protocols served, each request logged. */
function buildServeApp(parts: ServeAppParts) {
  const { agent, settings, options, url } = parts;
  const services: ServeServices = {
    agent: {
      name: agent.config.name,
      description: agent.config.description,
      model: agent.config.model.name,
      backend: parts.backend,
    },
    registry: parts.registry,
    keys: parts.keys,
    protocols: settings.protocols,
    maxMessageChars: settings.maxMessageChars,
    maxBodyBytes: settings.maxBodyBytes,
    corsOrigins: settings.corsOrigins,
    ...(parts.local ? { loopbackHosts: settings.allowedHosts } : {}),
    phase: parts.phase,
    publicUrl: () => url.replace(/\/$/, ''),
    state: new Map(),
  };
  const routes: ServeRoute[] = [
    ...coreRoutes(() => buildServeOpenApi(served(), agent.config.name)),
    ...protocolRoutes(),
  ];
  const served = () =>
    routes.filter((route) => route.protocol === 'core' || settings.protocols.has(route.protocol));
  return createServeApp(services, routes, {
    log: requestLogger(options.logOutput ?? process.stdout),
    logError: parts.note,
    ...(options.logContent ? { logContent: true } : {}),
  });
}

/**
 * Loads agent.yaml, starts listening (`/health` answers, `/ready` is 503), initialises the backend
 * (credentials, tool modules, MCP servers), then accepts requests. A non-loopback host needs
 * `allowRemote` and API keys; without keys the server is open, on loopback only.
 */
export async function startAgentServer(options: ServeOptions): Promise<AgentServer> {
  const env = options.env ?? process.env;
  const note = options.onMessage ?? ((message: string) => process.stderr.write(`${message}\n`));
  const { host, local, keys } = serveHostAndKeys(options, env);
  const agent = await loadServedAgent(options);
  const profile = backendProfile(agent.config.model.provider);
  const settings = resolveServeSettings(
    agent.config.serve,
    options.protocols ? { protocols: options.protocols } : {},
    profile.agentProcesses === true,
    agent.directory,
  );
  // Checked before listening: a telemetry setting serve cannot honour stops it here.
  const tracingPlan = serveTracingPlan(agent, env);
  const metricsPlan = serveMetricsPlan(agent, env);
  const { server, url, instanceId, serve } = await listenStarting(options, host);
  const backend = selectBackend(agent);
  // The gauge of live sessions reads the registry, made once its observers are.
  const built: { registry?: SessionRegistry } = {};
  const telemetry = await startServeTelemetry({
    agent,
    backend: profile.name,
    tracingPlan,
    metricsPlan,
    instanceId,
    note,
    liveSessions: () => built.registry?.size ?? 0,
  });
  const registry = new SessionRegistry(
    backend,
    instanceId,
    settings,
    settings.sessionsDir === undefined ? undefined : new SavedSessions(settings.sessionsDir),
    observeAll(telemetry.observers),
    (message) => note(`warning ${message}`),
  );
  built.registry = registry;
  let phase: 'starting' | 'ready' | 'closing' = 'starting';
  const app = buildServeApp({
    agent,
    backend: profile.name,
    registry,
    keys,
    settings,
    local,
    url,
    phase: () => phase,
    options,
    note,
  });
  serve(app.fetch);
  try {
    await backend.initialize();
  } catch (error) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await backend.teardown();
    await telemetry.flush();
    throw error;
  }
  for (const warning of [...agent.warnings, ...backend.warnings]) note(`warning ${warning.message}`);
  phase = 'ready';
  return {
    url,
    settings,
    instanceId,
    async shutdown(drainMs) {
      phase = 'closing';
      // Stop accepting connections; open streams go on until their turns drain or are interrupted.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await registry.drain(drainMs);
      await backend.teardown();
      // The spans and metrics of the last turns are exported before the process exits.
      await telemetry.flush();
      // The readers of interrupted turns write their last events; then every connection ends.
      await new Promise((resolve) => setTimeout(resolve, 100));
      if ('closeAllConnections' in server) server.closeAllConnections();
      await closed;
    },
  };
}

function defaultInstanceId(port: number): string {
  const name =
    hostname()
      .toLowerCase()
      .replace(/[^a-z0-9-]/g, '-')
      .slice(0, 30) || 'serve';
  return `${name}-${port}`.replace(/^-+/, '');
}

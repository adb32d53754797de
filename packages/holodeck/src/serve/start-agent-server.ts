import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { backendProfile, selectBackend } from '../backends/select-backend.js';
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
import { type ObserveTurn, observeAll } from './turn-observer.js';

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

/**
 * Loads agent.yaml, starts listening (`/health` answers, `/ready` is 503), initialises the backend
 * (credentials, tool modules, MCP servers), then accepts requests. A non-loopback host needs
 * `allowRemote` and API keys; without keys the server is open, on loopback only.
 */
export async function startAgentServer(options: ServeOptions): Promise<AgentServer> {
  const env = options.env ?? process.env;
  const note = options.onMessage ?? ((message: string) => process.stderr.write(`${message}\n`));
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
  const agent = await loadAgent(
    options.agentFile,
    options.env
      ? {
          env: Object.fromEntries(
            Object.entries(options.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
          ),
        }
      : {},
  );
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
  const port = options.port ?? 8000;
  // Listening starts before the backend is initialised (/health answers, /ready is 503), and
  // before the instance id is known when the port is chosen by the system.
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
  const backend = selectBackend(agent);
  // OpenTelemetry is loaded only when spans or metrics are on. Both carry the same resource: the
  // service, and which instance of a fleet sent them.
  const resourceAttributes = { 'service.instance.id': instanceId };
  const tracing = tracingPlan
    ? (await import('../telemetry/start-tracing.js')).startTracing({
        ...tracingPlan.options,
        resourceAttributes,
      })
    : undefined;
  const metrics = metricsPlan
    ? (await import('../telemetry/start-metrics.js')).startMetrics({
        ...metricsPlan.options,
        resourceAttributes,
      })
    : undefined;
  const observers: ObserveTurn[] = [];
  if (tracing && tracingPlan) {
    note(`tracing: a span per turn and per tool call, to ${tracingPlan.destination}`);
    if (tracingPlan.note) note(`note ${tracingPlan.note}`);
    observers.push(
      (await import('./turn-spans.js')).turnSpans(tracing.tracer, {
        agent: agent.config.name,
        model: agent.config.model.name,
        backend: profile.name,
        captureContent: tracingPlan.captureContent,
        redact: tracingPlan.redact,
      }),
    );
  }
  // The gauge of live sessions reads the registry, made once its observers are.
  const built: { registry?: SessionRegistry } = {};
  if (metrics && metricsPlan) {
    note(
      `metrics: turns, durations, tokens and live sessions, every ${metricsPlan.options.exportIntervalMs} ms to ${metricsPlan.destination}`,
    );
    if (metricsPlan.note && metricsPlan.note !== tracingPlan?.note) note(`note ${metricsPlan.note}`);
    observers.push(
      (await import('./turn-metrics.js')).turnMetrics(metrics.meter, {
        agent: agent.config.name,
        model: agent.config.model.name,
        provider: agent.config.model.provider,
        liveSessions: () => built.registry?.size ?? 0,
      }),
    );
  }
  // Exports what the last turns left buffered (spans in the batch, the metrics since the last export).
  const flushTelemetry = () =>
    Promise.all([
      tracing?.shutdown().catch((error: unknown) => note(`warning tracing: ${String(error)}`)),
      metrics?.shutdown().catch((error: unknown) => note(`warning metrics: ${String(error)}`)),
    ]);
  const registry = new SessionRegistry(
    backend,
    instanceId,
    settings,
    settings.sessionsDir === undefined ? undefined : new SavedSessions(settings.sessionsDir),
    observeAll(observers),
    (message) => note(`warning ${message}`),
  );
  built.registry = registry;
  let phase: 'starting' | 'ready' | 'closing' = 'starting';
  const services: ServeServices = {
    agent: {
      name: agent.config.name,
      description: agent.config.description,
      model: agent.config.model.name,
      backend: profile.name,
    },
    registry,
    keys,
    protocols: settings.protocols,
    maxMessageChars: settings.maxMessageChars,
    maxBodyBytes: settings.maxBodyBytes,
    corsOrigins: settings.corsOrigins,
    ...(local ? { loopbackHosts: settings.allowedHosts } : {}),
    phase: () => phase,
    publicUrl: () => url.replace(/\/$/, ''),
    state: new Map(),
  };
  const routes: ServeRoute[] = [
    ...coreRoutes(() => buildServeOpenApi(served(), agent.config.name)),
    ...protocolRoutes(),
  ];
  const served = () =>
    routes.filter((route) => route.protocol === 'core' || settings.protocols.has(route.protocol));
  const app = createServeApp(services, routes, {
    log: requestLogger(options.logOutput ?? process.stdout),
    logError: note,
    ...(options.logContent ? { logContent: true } : {}),
  });
  handle = app.fetch;
  try {
    await backend.initialize();
  } catch (error) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await backend.teardown();
    await flushTelemetry();
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
      await flushTelemetry();
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

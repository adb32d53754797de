import type { Server as HttpServer } from 'node:http';
import type { Hono } from 'hono';
import { NovarchError } from '../errors.js';
import { WebhookNotifier } from '../notify/webhook-notifier.js';
import { checkPublicUrl } from '../rules/check-public-url.js';
import { errorMessage } from '../support.js';
import { newInstanceId, type ServerCluster, startServerCluster } from './cluster/server-cluster.js';
import { createServerApp } from './create-server-app.js';
import { drainNovarchServer } from './drain-novarch-server.js';
import { JudgementsInFlight } from './judgements-in-flight.js';
import {
  DEFAULT_DRAIN_TIMEOUT_MS,
  type NovarchServerOptions,
  type RunningNovarchServer,
  type ServerWebhookOptions,
} from './novarch-server-options.js';
import { openServerStores, type ServerStores } from './open-server-stores.js';
import { listeningAddress, serveHttp } from './serve-http.js';
import { ServerEvents } from './server-events.js';
import { SlackApprovals } from './slack-approvals.js';

export {
  DEFAULT_DRAIN_TIMEOUT_MS,
  type NovarchServerOptions,
  type RunningNovarchServer,
  type ServerWebhookOptions,
} from './novarch-server-options.js';

/** Opens the store and serves the API on `host:port`. */
export async function startNovarchServer(options: NovarchServerOptions): Promise<RunningNovarchServer> {
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const publicUrl = checkedPublicUrl(options);
  const instanceId = newInstanceId();
  const stores = await openServerStores(options.storeUrl, options.storeOptions ?? {}, instanceId);
  const events = new ServerEvents();
  let cluster: ServerCluster | undefined;
  const inFlight = new JudgementsInFlight(() => cluster?.fenced());
  cluster = await joinServerCluster(options, { stores, instanceId, events, log, inFlight });
  options.telemetry?.observePendingHolds(
    async () => (await stores.store.listHolds({ status: 'pending' })).length,
  );
  const shutdown = new AbortController();
  // The notifier is made once the port is known (its console link may need it), before any
  // request can be read: no hold is created without it.
  const late: LateServices = {};
  const app = createServedApp(options, { stores, events, inFlight, cluster, log, publicUrl, shutdown, late });
  const { server, responses } = await serveHttp({
    host: options.host,
    port: options.port,
    shutdown: shutdown.signal,
    handle: (request) => inFlight.serve(() => app.fetch(request)),
  }).catch(async (error: unknown) => {
    await cluster?.stop();
    await stores.close();
    throw error;
  });
  const { port, url } = listeningAddress(server, options.host);
  const consoleUrl = `${publicUrl ?? url}/console`;
  if (options.webhooks !== undefined)
    late.notifier = await startWebhookNotifier(options.webhooks, {
      stores,
      cluster,
      log,
      consoleUrl,
      server,
    });
  if (options.slack !== undefined) {
    late.slack = new SlackApprovals({
      settings: options.slack,
      store: stores.store,
      identities: stores.identities,
      events,
      consoleUrl,
      log,
      ...(options.slackClient === undefined ? {} : { client: options.slackClient }),
    });
    late.slack.start();
  }
  const { notifier, slack } = late;
  const drainTimeoutMs = options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS;
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    app,
    stores,
    events,
    cluster,
    ...(slack === undefined ? {} : { slack }),
    close() {
      closing ??= drainNovarchServer({
        server,
        responses,
        shutdown,
        drainTimeoutMs,
        inFlight,
        stores,
        log,
        notifier,
        slack,
        telemetry: options.telemetry,
        cluster,
      });
      return closing;
    },
  };
}

/** Services made once the server listens, which requests reach through the app from the start. */
interface LateServices {
  notifier?: WebhookNotifier;
  slack?: SlackApprovals;
}

/** `options.publicUrl` checked; refuses webhooks on a wildcard address without one. */
function checkedPublicUrl(options: NovarchServerOptions): string | undefined {
  const wildcard = options.host === '0.0.0.0' || options.host === '::';
  if (options.webhooks !== undefined && options.publicUrl === undefined && wildcard)
    throw new NovarchError(
      `webhooks link to the console, but this server listens on every interface (${options.host}): give the address operators reach it at with --public-url ($NOVARCH_PUBLIC_URL, server.public_url), e.g. https://novarch.example.com`,
    );
  return options.publicUrl === undefined ? undefined : checkPublicUrl(options.publicUrl);
}

/**
 * Several servers on one PostgreSQL: a lease, live events for all, shared limits. SQLite: one
 * server, no cluster. Closes the stores when the cluster cannot be joined.
 */
async function joinServerCluster(
  options: NovarchServerOptions,
  parts: {
    stores: ServerStores;
    instanceId: string;
    events: ServerEvents;
    log: (message: string) => void;
    inFlight: JudgementsInFlight;
  },
): Promise<ServerCluster | undefined> {
  const { stores } = parts;
  if (stores.postgresUrl === undefined) return undefined;
  try {
    return await startServerCluster({
      postgresUrl: stores.postgresUrl,
      instanceId: parts.instanceId,
      store: stores.store,
      events: parts.events,
      log: parts.log,
      onLeaseLost: options.onLeaseLost ?? (() => {}),
      judgingSince: () => parts.inFlight.judgingSince(),
      ...(options.lease === undefined ? {} : { timings: options.lease }),
    });
  } catch (error) {
    await stores.close();
    throw new NovarchError(
      `cannot join the servers of ${stores.description}: ${errorMessage(error)}. Check that the database is reachable.`,
    );
  }
}

/** The API app, reaching the notifier and Slack approvals made later through `late`. */
function createServedApp(
  options: NovarchServerOptions,
  parts: {
    stores: ServerStores;
    events: ServerEvents;
    inFlight: JudgementsInFlight;
    cluster: ServerCluster | undefined;
    log: (message: string) => void;
    publicUrl: string | undefined;
    shutdown: AbortController;
    late: LateServices;
  },
): Hono {
  const { stores, cluster, publicUrl, late } = parts;
  return createServerApp(
    {
      // What each request stores is tracked, and nothing is stored after a shutdown's cut.
      store: parts.inFlight.guard(stores.store),
      identities: stores.identities,
      events: parts.events,
      rules: options.rules,
      ...(options.llmJudge === undefined ? {} : { llmJudge: options.llmJudge }),
      ...(options.telemetry === undefined ? {} : { telemetry: options.telemetry }),
      holdWindowSeconds: options.holdWindowSeconds,
      ...(options.judgeTimeoutMs === undefined ? {} : { judgeTimeoutMs: options.judgeTimeoutMs }),
      ...(options.tenants === undefined ? {} : { tenants: options.tenants }),
      ...(options.webhooks === undefined
        ? {}
        : { notifier: { notifyHold: (event) => late.notifier?.notifyHold(event) ?? false } }),
      shutdown: parts.shutdown.signal,
    },
    {
      log: parts.log,
      ...(options.slack === undefined
        ? {}
        : {
            slack: {
              handleInteraction: async (request: Request) =>
                late.slack === undefined
                  ? new Response('Slack approvals are starting: try again.', { status: 503 })
                  : late.slack.handleInteraction(request),
            },
          }),
      console: {
        ...(publicUrl === undefined ? {} : { publicOrigin: new URL(publicUrl).origin }),
        ...(options.consoleEventsPollMs === undefined ? {} : { eventsPollMs: options.consoleEventsPollMs }),
        ...(cluster === undefined ? {} : { signInLimit: cluster.signInLimiter }),
      },
    },
  );
}

/**
 * The webhook notifier, with the deliveries a previous process left pending resumed (each at its
 * next attempt time). Closes the server, the cluster and the stores when it cannot be made.
 */
async function startWebhookNotifier(
  webhooks: ServerWebhookOptions,
  parts: {
    stores: ServerStores;
    cluster: ServerCluster | undefined;
    log: (message: string) => void;
    consoleUrl: string;
    server: HttpServer;
  },
): Promise<WebhookNotifier> {
  const { stores, cluster, log } = parts;
  let notifier: WebhookNotifier;
  try {
    notifier = new WebhookNotifier({
      onError: (error) => log(`novarch serve: a webhook could not be recorded: ${error.message}`),
      ...webhooks,
      store: stores.store,
      consoleUrl: parts.consoleUrl,
      ...(cluster === undefined ? {} : { claims: cluster.webhookClaims }),
    });
  } catch (error) {
    await new Promise<void>((resolve) => parts.server.close(() => resolve()));
    await cluster?.stop();
    await stores.close();
    throw error;
  }
  await notifier
    .start()
    .catch((error: unknown) =>
      log(`novarch serve: pending webhooks could not be resumed: ${errorMessage(error)}`),
    );
  return notifier;
}

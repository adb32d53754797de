import type { Server as HttpServer, IncomingMessage, ServerResponse } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import type { Hono } from 'hono';
import { NovarchError } from '../errors.js';
import { WebhookNotifier, type WebhookNotifierOptions } from '../notify/webhook-notifier.js';
import { checkPublicUrl } from '../rules/check-public-url.js';
import type { LlmJudge } from '../rules/llm/llm-judge.js';
import { DEFAULT_DRAIN_TIMEOUT_SECONDS } from '../rules/novarch-config.js';
import type { RuleSet } from '../rules/rule-set.js';
import type { StoredValueOptions } from '../store/stored-value-policy.js';
import { errorMessage } from '../support.js';
import type { NovarchTelemetry } from '../telemetry/novarch-telemetry.js';
import type { LeaseTimings } from './cluster/instance-lease.js';
import { newInstanceId, type ServerCluster, startServerCluster } from './cluster/server-cluster.js';
import { createServerApp } from './create-server-app.js';
import { JudgementsInFlight, SHUTDOWN_REFUSAL_RATIONALE } from './judgements-in-flight.js';
import { openServerStores, type ServerStores } from './open-server-stores.js';
import { problemAsResponse } from './problem-response.js';
import type { SlackSettings } from './resolve-slack-settings.js';
import { ServerEvents } from './server-events.js';
import type { ServedTenant } from './server-services.js';
import { SlackApprovals, type SlackApprovalsOptions } from './slack-approvals.js';

/** How long a shutdown waits for requests in flight (a judge deciding) before it closes anyway. */
export const DEFAULT_DRAIN_TIMEOUT_MS = DEFAULT_DRAIN_TIMEOUT_SECONDS * 1000;

export interface NovarchServerOptions {
  /** `sqlite:PATH` or `postgres://…`. */
  storeUrl: string;
  storeOptions?: StoredValueOptions;
  host: string;
  /** 0: any free port (tests). */
  port: number;
  /**
   * The rules files of `novarch.yaml`: a team's rules pushed to the store replace them for that
   * team (see `ServerRules` for the precedence).
   */
  rules: readonly RuleSet[];
  llmJudge?: LlmJudge;
  holdWindowSeconds: number;
  judgeTimeoutMs?: number;
  tenants?: Readonly<Record<string, ServedTenant>>;
  /**
   * How long a shutdown waits for the requests in flight (ms, default 30000). A write still being
   * judged when it passes is stored as refused (`SHUTDOWN_REFUSAL_RATIONALE`) and answered 503;
   * its judge's later answer is never stored.
   */
  drainTimeoutMs?: number;
  log?: (message: string) => void;
  /**
   * The address operators reach this server at, e.g. `https://novarch.example.com`: webhooks link
   * to `${publicUrl}/console/holds/${id}`, and the console accepts state changes from its origin
   * only. Default the address the server listens on (required with webhooks when that is every
   * interface, 0.0.0.0 or ::, which no browser can open).
   */
  publicUrl?: string;
  /**
   * The tenants' webhooks on new holds (each signed with its tenant's secret), and how they are
   * retried. Absent: no webhooks.
   */
  webhooks?: ServerWebhookOptions;
  /** How often live console pages look for new and decided holds (ms, default 1000). */
  consoleEventsPollMs?: number;
  /**
   * OpenTelemetry (`startNovarchTelemetry`): spans and metrics of the decisions; the pending
   * holds gauge reads this server's store. Shut down with the server, after its last request.
   */
  telemetry?: NovarchTelemetry;
  /**
   * On PostgreSQL: told when another server took this one's lease (it was given up for dead, e.g.
   * frozen or cut off from the database longer than the lease): it stores nothing more and should
   * stop (`novarch serve` exits 1). Default: logged.
   */
  onLeaseLost?: () => void;
  /** On PostgreSQL: the lease timings (tests shorten them). */
  lease?: Partial<LeaseTimings>;
  /**
   * Interactive approvals in Slack (`resolveSlackSettings`): holds posted with Approve / Deny,
   * clicks at `POST /slack/interactions`. Absent: off.
   */
  slack?: SlackSettings;
  /** Slack API client overrides (tests: a short backoff). */
  slackClient?: SlackApprovalsOptions['client'];
}

/** `WebhookNotifierOptions` without what the server supplies itself (its store and console URL). */
export type ServerWebhookOptions = Omit<WebhookNotifierOptions, 'store' | 'consoleUrl'>;

/** A server that listens. */
export interface RunningNovarchServer {
  /** `http://HOST:PORT`. */
  url: string;
  port: number;
  app: Hono;
  stores: ServerStores;
  events: ServerEvents;
  /** On PostgreSQL: this server's lease, event relay and shared limits (undefined on SQLite). */
  cluster: ServerCluster | undefined;
  /** Slack approvals, when configured (tests wait on `whenIdle()`). */
  slack?: SlackApprovals;
  /**
   * Graceful shutdown: stops accepting connections, lets the requests in flight finish (a write
   * being judged gets its verdict stored and answered; long-polls on holds answer at once with
   * the hold as it is, so their agents poll again and, the server gone, refuse), then closes the
   * store. When the drain timeout passes first, each write still being judged is stored as
   * refused and answered 503, and nothing more is stored (fail-closed: a judge answering later
   * can neither pass nor release it). No decision that was stored is lost, and none is half-made.
   */
  close(): Promise<void>;
}

/** Opens the store and serves the API on `host:port`. */
export async function startNovarchServer(options: NovarchServerOptions): Promise<RunningNovarchServer> {
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const wildcard = options.host === '0.0.0.0' || options.host === '::';
  if (options.webhooks !== undefined && options.publicUrl === undefined && wildcard)
    throw new NovarchError(
      `webhooks link to the console, but this server listens on every interface (${options.host}): give the address operators reach it at with --public-url ($NOVARCH_PUBLIC_URL, server.public_url), e.g. https://novarch.example.com`,
    );
  const publicUrl = options.publicUrl === undefined ? undefined : checkPublicUrl(options.publicUrl);
  const instanceId = newInstanceId();
  const stores = await openServerStores(options.storeUrl, options.storeOptions ?? {}, instanceId);
  const events = new ServerEvents();
  const inFlight = new JudgementsInFlight(() => cluster?.fenced());
  // Several servers on one PostgreSQL: a lease, live events for all, shared limits. SQLite: one server.
  let cluster: ServerCluster | undefined;
  if (stores.postgresUrl !== undefined) {
    try {
      cluster = await startServerCluster({
        postgresUrl: stores.postgresUrl,
        instanceId,
        store: stores.store,
        events,
        log,
        onLeaseLost: options.onLeaseLost ?? (() => {}),
        judgingSince: () => inFlight.judgingSince(),
        ...(options.lease === undefined ? {} : { timings: options.lease }),
      });
    } catch (error) {
      await stores.close();
      throw new NovarchError(
        `cannot join the servers of ${stores.description}: ${errorMessage(error)}. Check that the database is reachable.`,
      );
    }
  }
  options.telemetry?.observePendingHolds(
    async () => (await stores.store.listHolds({ status: 'pending' })).length,
  );
  const shutdown = new AbortController();
  // The notifier is made once the port is known (its console link may need it), before any
  // request can be read: no hold is created without it.
  let notifier: WebhookNotifier | undefined;
  let slack: SlackApprovals | undefined;
  const app = createServerApp(
    {
      // What each request stores is tracked, and nothing is stored after a shutdown's cut.
      store: inFlight.guard(stores.store),
      identities: stores.identities,
      events,
      rules: options.rules,
      ...(options.llmJudge === undefined ? {} : { llmJudge: options.llmJudge }),
      ...(options.telemetry === undefined ? {} : { telemetry: options.telemetry }),
      holdWindowSeconds: options.holdWindowSeconds,
      ...(options.judgeTimeoutMs === undefined ? {} : { judgeTimeoutMs: options.judgeTimeoutMs }),
      ...(options.tenants === undefined ? {} : { tenants: options.tenants }),
      ...(options.webhooks === undefined
        ? {}
        : {
            notifier: {
              notifyHold: (event) => notifier?.notifyHold(event) ?? false,
            },
          }),
      shutdown: shutdown.signal,
    },
    {
      log,
      ...(options.slack === undefined
        ? {}
        : {
            slack: {
              handleInteraction: async (request: Request) =>
                slack === undefined
                  ? new Response('Slack approvals are starting: try again.', { status: 503 })
                  : slack.handleInteraction(request),
            },
          }),
      console: {
        ...(publicUrl === undefined ? {} : { publicOrigin: new URL(publicUrl).origin }),
        ...(options.consoleEventsPollMs === undefined ? {} : { eventsPollMs: options.consoleEventsPollMs }),
        ...(cluster === undefined ? {} : { signInLimit: cluster.signInLimiter }),
      },
    },
  );
  // Responses not yet fully sent (a verdict being judged, a long-poll, an event stream): a
  // shutdown waits for them, so no stored decision is left unanswered.
  const open = new Set<ServerResponse>();
  let drained: (() => void) | undefined;
  const allAnswered = () =>
    open.size === 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          drained = resolve;
        });
  const server = createAdaptorServer({
    hostname: options.host,
    port: options.port,
    fetch: async (request: Request) => {
      if (shutdown.signal.aborted)
        return problemAsResponse({
          type: 'about:blank',
          title: 'Service Unavailable',
          status: 503,
          detail: 'the server is shutting down',
        });
      return inFlight.serve(() => app.fetch(request));
    },
  }) as HttpServer;
  server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
    open.add(response);
    response.once('close', () => {
      open.delete(response);
      if (open.size === 0) drained?.();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        new NovarchError(
          error.code === 'EADDRINUSE'
            ? `cannot listen on ${options.host}:${options.port}: the address is in use (another novarch serve?); choose another with --listen HOST:PORT`
            : `cannot listen on ${options.host}:${options.port}: ${error.message}`,
        ),
      );
    });
    server.listen(options.port, options.host, () => resolve());
  }).catch(async (error: unknown) => {
    await cluster?.stop();
    await stores.close();
    throw error;
  });
  const address = server.address();
  if (address === null || typeof address === 'string')
    throw new NovarchError('the server listens on no TCP port');
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `http://${host}:${address.port}`;
  if (options.webhooks !== undefined) {
    try {
      notifier = new WebhookNotifier({
        onError: (error) => log(`novarch serve: a webhook could not be recorded: ${error.message}`),
        ...options.webhooks,
        store: stores.store,
        consoleUrl: `${publicUrl ?? url}/console`,
        ...(cluster === undefined ? {} : { claims: cluster.webhookClaims }),
      });
    } catch (error) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await cluster?.stop();
      await stores.close();
      throw error;
    }
    // Deliveries a previous process left pending resume (each at its next attempt time).
    await notifier
      .start()
      .catch((error: unknown) =>
        log(`novarch serve: pending webhooks could not be resumed: ${errorMessage(error)}`),
      );
  }
  if (options.slack !== undefined) {
    slack = new SlackApprovals({
      settings: options.slack,
      store: stores.store,
      identities: stores.identities,
      events,
      consoleUrl: `${publicUrl ?? url}/console`,
      log,
      ...(options.slackClient === undefined ? {} : { client: options.slackClient }),
    });
    slack.start();
  }
  let closing: Promise<void> | undefined;
  return {
    url,
    port: address.port,
    app,
    stores,
    events,
    cluster,
    ...(slack === undefined ? {} : { slack }),
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        // Long-polls answer at once, event streams end; requests being judged run to their answer.
        shutdown.abort();
        server.closeIdleConnections();
        const drainTimeoutMs = options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS;
        const answered = open.size === 0 || (await settledWithin(allAnswered(), drainTimeoutMs));
        // Nothing is stored from now on but the refusals of the writes still being judged: past
        // the drain timeout, or after their agents went away (a judge answering later stores nothing).
        const outcome = await inFlight.cut(stores.store);
        if (outcome.refused > 0)
          log(
            `novarch serve: ${outcome.refused} write(s) still being judged ${answered ? 'after their agents went away' : `when the drain timeout (${drainTimeoutMs / 1000} s) passed`}: stored as refused ("${SHUTDOWN_REFUSAL_RATIONALE}")${answered ? '' : ' and answered 503'}`,
          );
        for (const failure of outcome.failures)
          log(
            `novarch serve: the refusal of a write being judged could not be stored (${failure}): it keeps no verdict and never ran`,
          );
        // The cut's answers, and those of requests whose decision was stored, go out.
        if (!answered) await settledWithin(allAnswered(), CUT_ANSWER_GRACE_MS);
        server.closeAllConnections();
        await stopped;
        // Webhooks being sent finish (each bounded by its timeout); the rest stay pending in the store.
        await notifier?.stop();
        await slack?.stop();
        await options.telemetry?.shutdown();
        // The lease ends last: until here a survivor must not take this server's judgements.
        await cluster?.stop();
        await stores.close();
      })();
      return closing;
    },
  };
}

/** How long, after a cut, the answers still in flight get before their connections are closed. */
const CUT_ANSWER_GRACE_MS = 1_000;

/** True when `promise` settled within `ms`. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), expired]);
  } finally {
    clearTimeout(timer);
  }
}

import type { Hono } from 'hono';
import type { WebhookNotifierOptions } from '../notify/webhook-notifier.js';
import type { LlmJudge } from '../rules/llm/llm-judge.js';
import { DEFAULT_DRAIN_TIMEOUT_SECONDS } from '../rules/novarch-config.js';
import type { RuleSet } from '../rules/rule-set.js';
import type { StoredValueOptions } from '../store/stored-value-policy.js';
import type { NovarchTelemetry } from '../telemetry/novarch-telemetry.js';
import type { LeaseTimings } from './cluster/instance-lease.js';
import type { ServerCluster } from './cluster/server-cluster.js';
import type { ServerStores } from './open-server-stores.js';
import type { SlackSettings } from './resolve-slack-settings.js';
import type { ServerEvents } from './server-events.js';
import type { ServedTenant } from './server-services.js';
import type { SlackApprovals, SlackApprovalsOptions } from './slack-approvals.js';

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

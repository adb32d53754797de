import { NovarchEngine } from '../engine/novarch-engine.js';
import type { IdentityStore } from '../identity/identity-store.js';
import type { NovarchDatabaseStore } from '../model/novarch-store.js';
import type { HoldCreatedEvent } from '../notify/hold-webhook-payload.js';
import type { LlmJudge } from '../rules/llm/llm-judge.js';
import type { RuleSet } from '../rules/rule-set.js';
import type { NovarchTelemetry } from '../telemetry/novarch-telemetry.js';
import type { ServerEvents } from './server-events.js';
import { ServerRules } from './server-rules.js';
import type { TenantScopedStore } from './tenant-scoped-store.js';

/** A tenant the server serves, and what it sets for itself. */
export interface ServedTenant {
  /** This tenant's hold window (s); default the deployment's. */
  holdWindowSeconds?: number;
}

/** Told of every new hold, e.g. a `WebhookNotifier`: returns at once and never throws. */
export interface HoldNotifier {
  notifyHold(event: HoldCreatedEvent): boolean;
}

/** Everything the routes work with. */
export interface ServerServices {
  store: NovarchDatabaseStore;
  identities: IdentityStore;
  events: ServerEvents;
  /**
   * The rules files of `novarch.yaml` (`rules:`). A team's rules pushed to the store replace them
   * for that team (see `ServerRules` for the precedence).
   */
  rules: readonly RuleSet[];
  llmJudge?: LlmJudge;
  /** OpenTelemetry of each decision, judge call and hold wait (off when absent). */
  telemetry?: NovarchTelemetry;
  /** The deployment's hold window (s). */
  holdWindowSeconds: number;
  /** The judge's budget per write (ms); default the engine's. */
  judgeTimeoutMs?: number;
  /**
   * The tenants served, by id. Absent: every tenant an agent key or grant names. Present: a
   * credential of another tenant is refused (403), and keys are created only for these.
   */
  tenants?: Readonly<Record<string, ServedTenant>>;
  /**
   * Told of every new hold (the tenants' webhooks). Absent: the deployment has no webhooks (the
   * console's webhooks page says so).
   */
  notifier?: HoldNotifier;
  /** Fires when the server shuts down: long-polls return at once, event streams end. */
  shutdown: AbortSignal;
}

const serverRules = new WeakMap<ServerServices, ServerRules>();

/** The server's rules (pushed, then files), one per app so parsed versions are kept across requests. */
export function serverRulesOf(services: ServerServices): ServerRules {
  let rules = serverRules.get(services);
  if (rules === undefined) {
    rules = new ServerRules(services.store, services.rules);
    serverRules.set(services, rules);
  }
  return rules;
}

/**
 * The engine for one request on the caller's view of the store, judging by the rules of the
 * session's tenant and team: pushed to the server, else pushed to the store, else the files.
 */
export function engineFor(
  services: ServerServices,
  store: TenantScopedStore,
  tenantId: string,
): NovarchEngine {
  return new NovarchEngine({
    store,
    rules: serverRulesOf(services).forTenant(tenantId),
    holdWindowSeconds: services.tenants?.[tenantId]?.holdWindowSeconds ?? services.holdWindowSeconds,
    ...(services.llmJudge === undefined ? {} : { llmJudge: services.llmJudge }),
    ...(services.judgeTimeoutMs === undefined ? {} : { judgeTimeoutMs: services.judgeTimeoutMs }),
    ...(services.telemetry === undefined ? {} : { telemetry: services.telemetry }),
  });
}

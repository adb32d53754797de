import type { Hono } from 'hono';
import type { ConsoleOperator, TeamCalibration } from '../console/console-deps.js';
import type { ConsoleSessionOptions } from '../console/console-session-store.js';
import { createConsoleApp } from '../console/create-console-app.js';
import { operatorCovers } from '../console/operator-scope.js';
import { storeConsoleDeps } from '../console/store-console-deps.js';
import type { FailedAuthLimitOptions, SignInLimiter } from '../identity/failed-auth-limiter.js';
import { calibrateRules } from '../rules/calibrate/calibrate-rules.js';
import { ruleSetFromStored } from '../rules/stored-rules.js';
import { errorMessage } from '../support.js';
import { parseTenantTeamKey, tenantRuleSets } from './server-rules.js';
import type { ServerServices } from './server-services.js';

/** How the server serves its console (all optional). */
export interface ServerConsoleOptions {
  /**
   * The origin operators' browsers reach the server at, when it differs from the request's own
   * (behind a TLS-terminating proxy); the console refuses state changes from any other origin.
   */
  publicOrigin?: string;
  /** How often live pages look for new and decided holds (ms, default 1000). */
  eventsPollMs?: number;
  /** Idle and absolute session lifetimes (default 30 minutes and 12 hours). */
  session?: ConsoleSessionOptions;
  /**
   * Failed sign-ins allowed per client address before `POST /console/sign-in` answers 429
   * (default 10 per 5 minutes; `X-Forwarded-For` is not trusted unless `trustForwardedFor`), or a
   * limiter to share with the API's bearer auth.
   */
  signInLimit?: FailedAuthLimitOptions | SignInLimiter;
  log?: (message: string) => void;
}

/**
 * Mounts the operator console at `/console` on the server's app: over the server's store, signed
 * in with the server's operator tokens (an agent key never signs in), its sessions kept in the
 * identity tables (a restart keeps operators signed in; every server process on the store shares
 * them), its decisions and kills announced on the server's event bus so agents long-polling
 * through the server wake at once.
 */
export function mountConsole(app: Hono, services: ServerServices, options: ServerConsoleOptions = {}): void {
  const { identities, events, store } = services;
  const deps = storeConsoleDeps({
    store,
    verifyOperatorToken: async (token) => {
      const principal = await identities.authenticate(token);
      return principal?.kind === 'operator' ? principal : undefined;
    },
    // Asked on every request of a signed-in console session (one primary-key lookup): a revoked
    // token signs it out at once.
    findOperator: async (id) => {
      const token = await identities.findOperatorToken(id);
      return token === undefined || token.revokedAt !== undefined
        ? undefined
        : {
            id: token.id,
            name: token.name,
            role: token.role,
            grants: token.grants,
            ...(token.groups === undefined ? {} : { groups: token.groups }),
            ...(token.notForKeys === undefined ? {} : { notForKeys: token.notForKeys }),
          };
    },
    subscribeChanges: (listener) => events.subscribe(() => listener()),
    onHoldDecided: (session, hold) => events.emitHold('hold-decided', session, hold),
    onSessionKilled: (session) => events.emitKill(session),
    calibrateRules: (operator) => calibrateVisibleTeams(services, operator),
    ...(services.notifier === undefined
      ? {}
      : {
          listWebhookDeliveries: (tenantId: string) =>
            store.listWebhookDeliveries(tenantId, { status: 'failed' }),
        }),
  });
  app.route(
    '/',
    createConsoleApp(deps, {
      shutdown: services.shutdown,
      sessionRecords: identities,
      ...(options.session === undefined ? {} : { session: options.session }),
      ...(options.signInLimit === undefined ? {} : { signInLimit: options.signInLimit }),
      ...(options.publicOrigin === undefined ? {} : { publicOrigin: options.publicOrigin }),
      ...(options.eventsPollMs === undefined ? {} : { eventsPollMs: options.eventsPollMs }),
      ...(options.log === undefined ? {} : { log: options.log }),
    }),
  );
}

/**
 * `GET /v1/rules/{tenant}/{team}/calibration` for every team with rules pushed to this server
 * that the operator's grants reach (of a served tenant): its latest version, re-judged on the
 * tenant's decided holds.
 */
async function calibrateVisibleTeams(
  services: ServerServices,
  operator: ConsoleOperator,
): Promise<TeamCalibration[]> {
  const { store, tenants } = services;
  const teams: TeamCalibration[] = [];
  const keys = [...new Set((await store.listRuleSets()).map((set) => set.team))].sort();
  for (const key of keys) {
    const scope = parseTenantTeamKey(key);
    if (scope === undefined || !operatorCovers(operator, scope)) continue;
    if (tenants !== undefined && !(scope.tenantId in tenants)) continue;
    const stored = await tenantRuleSets(store, scope.tenantId).getRuleSet(scope.teamId, undefined);
    if (stored === undefined) continue;
    try {
      const report = await calibrateRules({
        store,
        ruleSet: ruleSetFromStored(stored),
        tenantId: scope.tenantId,
        ...(services.llmJudge === undefined ? {} : { llmJudge: services.llmJudge }),
        ...(services.judgeTimeoutMs === undefined ? {} : { judgeTimeoutMs: services.judgeTimeoutMs }),
      });
      teams.push({ ...scope, version: stored.version, report });
    } catch (error) {
      teams.push({
        ...scope,
        version: stored.version,
        error: `could not be measured: ${errorMessage(error)}`,
      });
    }
  }
  return teams;
}

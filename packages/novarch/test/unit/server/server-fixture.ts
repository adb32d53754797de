import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Hono } from 'hono';
import type { Grant, OperatorRole } from '../../../src/identity/principal.js';
import { loadRulesFile } from '../../../src/rules/load-rules-file.js';
import { createServerApp } from '../../../src/server/create-server-app.js';
import { openServerStores, type ServerStores } from '../../../src/server/open-server-stores.js';
import { ServerEvents } from '../../../src/server/server-events.js';
import type { ServedTenant } from '../../../src/server/server-services.js';
import { SessionSecrets } from '../../server-support/session-secrets.js';

export const GATE_RULES = fileURLToPath(
  new URL('../../fixtures/rules/cs-ops-gate.rules.yaml', import.meta.url),
);

/** A server app on a fresh SQLite store, and helpers to make credentials and requests. */
export interface ServerWorld {
  app: Hono;
  stores: ServerStores;
  events: ServerEvents;
  shutdown: AbortController;
  agentKey(tenantId: string, name?: string): Promise<string>;
  operatorToken(
    name: string,
    grants: Grant[],
    role?: OperatorRole,
    duties?: { groups?: string[]; notForKeys?: string[] },
  ): Promise<string>;
  /**
   * A JSON request with a bearer credential (none when `credential` is undefined), carrying the
   * secret of the session it names as the remote engine would (`headers` may override it).
   */
  call(
    method: string,
    url: string,
    credential: string | undefined,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Response>;
  /** The session secrets the calls learnt. */
  secrets: SessionSecrets;
  close(): Promise<void>;
}

export async function createServerWorld(
  options: {
    holdWindowSeconds?: number;
    tenants?: Record<string, ServedTenant>;
    /** The store (default: a fresh SQLite file), e.g. a fresh PostgreSQL database's URL. */
    storeUrl?: string;
    /** The rules file the server judges by (default `GATE_RULES`). */
    rulesFile?: string;
  } = {},
): Promise<ServerWorld> {
  const directory = mkdtempSync(path.join(tmpdir(), 'novarch-server-'));
  const stores = await openServerStores(options.storeUrl ?? `sqlite:${path.join(directory, 'novarch.db')}`);
  const events = new ServerEvents();
  const shutdown = new AbortController();
  const logged: string[] = [];
  const secrets = new SessionSecrets();
  const app = createServerApp(
    {
      store: stores.store,
      identities: stores.identities,
      events,
      rules: [await loadRulesFile(options.rulesFile ?? GATE_RULES)],
      holdWindowSeconds: options.holdWindowSeconds ?? 30,
      ...(options.tenants === undefined ? {} : { tenants: options.tenants }),
      shutdown: shutdown.signal,
    },
    { log: (message) => logged.push(message) },
  );
  return {
    app,
    stores,
    events,
    shutdown,
    async agentKey(tenantId, name = 'bot') {
      return (await stores.identities.createAgentKey({ tenantId, name })).secret;
    },
    async operatorToken(name, grants, role = 'operator', duties = {}) {
      return (await stores.identities.createOperatorToken({ name, role, grants, ...duties })).secret;
    },
    secrets,
    async call(method, url, credential, body, headers = {}) {
      const response = await app.request(url, {
        method,
        headers: {
          ...secrets.headersFor(url),
          ...(credential === undefined ? {} : { authorization: `Bearer ${credential}` }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (response.headers.get('content-type')?.startsWith('application/json'))
        secrets.learn(await response.clone().json());
      return response;
    },
    async close() {
      shutdown.abort();
      await stores.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** The proposal of a refund the gate fixture's rules judge (over 500: held). */
export function refundProposal(customer: string, amount: number) {
  return {
    actionType: 'issue_refund',
    toolName: 'mcp__cs__issue_refund',
    input: { customer_id: customer, amount },
    context: { recordId: customer, summary: `refund ${customer}`, amount },
    reasoning: 'customer asked',
    release: true,
  };
}

/** The evidence of a lookup of a customer. */
export function lookupEvidence(customer: string) {
  const now = new Date().toISOString();
  return {
    toolName: 'mcp__cs__lookup_customer',
    input: { customer_id: customer },
    output: { text: `customer ${customer}: ok` },
    isError: false,
    startedAt: now,
    finishedAt: now,
  };
}

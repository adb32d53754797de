import os from 'node:os';
import { z } from 'zod';
import { DecisionError } from '../engine/decision-error.js';
import type { EngineStore, GovernanceEngine } from '../engine/governance-engine.js';
import {
  ADOPT_DEPLOYMENT_WINDOW,
  type DecideOptions,
  type Decision,
  type ProposedAction,
} from '../engine/novarch-engine.js';
import { NovarchError } from '../errors.js';
import type { AuditEntry, AuditFilter, CallRefusal, ReleaseResult } from '../model/novarch-store.js';
import type {
  ActionRecord,
  EvidenceRecord,
  HoldRecord,
  KillDetails,
  SessionRecord,
  SessionScope,
  VerdictRecord,
} from '../model/records.js';
import {
  AuditEntrySchema,
  DecisionSchema,
  EvidenceRecordSchema,
  HoldRecordSchema,
  OpenedSessionSchema,
  RefusalRecordSchema,
  ReleaseResultSchema,
  SessionRecordSchema,
} from '../wire/record-schemas.js';
import { SESSION_SECRET_HEADER } from '../wire/session-secret-header.js';
import { NovarchHttpClient, NovarchServerError } from './novarch-http-client.js';

/** Where the remote engine's server and key come from when none is given in code. */
export const SERVER_ENV_VARIABLE = 'NOVARCH_SERVER';
export const API_KEY_ENV_VARIABLE = 'NOVARCH_API_KEY';

export interface RemoteEngineOptions {
  /** The server, e.g. `http://novarch.internal:7311`. */
  url: string;
  /** An agent key of the session's tenant (`novarch keys create`). */
  apiKey: string;
  /** One request's budget (ms, default 10000); a judgement gets up to its write's deadline. */
  timeoutMs?: number;
  /** Attempts after a failure that may be retried (default 2; see `NovarchHttpClient`). */
  retries?: number;
  /** How long one long-poll on a hold lasts (ms, default 25000). */
  pollMs?: number;
}

/** How long a judgement may take when the caller gives no deadline (the judge's own budget is 30 s). */
const DECIDE_TIMEOUT_MS = 45_000;
/** Slack of a long-poll's HTTP timeout over the time the server waits. */
const POLL_SLACK_MS = 10_000;

/**
 * An engine on a Novarch server: `NovarchHookGate`, `NovarchToolGovernor` and `augur.session`
 * take it where they take a `NovarchEngine`, with the same semantics (verdicts, latch, holds,
 * kills), every decision made and stored by the server. A server that is unreachable, slower
 * than a request's budget or answers 5xx makes the call fail after bounded retries, and the gate
 * refuses it (fail-closed): nothing runs on a verdict that did not arrive.
 */
export class RemoteEngine implements GovernanceEngine {
  readonly #client: NovarchHttpClient;
  readonly #pollMs: number;
  /**
   * The secrets of the sessions this engine opened, by session id: the server lets a session be
   * written only with its secret. They live in this process's memory only (never in an
   * environment variable the agent's tools inherit, never on disk).
   */
  readonly #secrets = new Map<string, string>();
  readonly store: EngineStore;

  constructor(options: RemoteEngineOptions) {
    if (options.apiKey.trim() === '')
      throw new NovarchError(
        'remoteEngine needs an agent key: pass apiKey (or set NOVARCH_API_KEY); create one with `novarch keys create`',
      );
    this.#client = new NovarchHttpClient({
      url: options.url,
      credential: options.apiKey,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.retries === undefined ? {} : { retries: options.retries }),
    });
    this.#pollMs = options.pollMs ?? 25_000;
    this.store = {
      recordEvidence: (evidence) => this.#recordEvidence(evidence),
      recordRefusal: (refusal) => this.#recordRefusal(refusal),
      killSession: (id, reason, details) => this.#latch(id, reason, details),
      audit: (filter) => this.#audit(filter),
    };
  }

  /** The server's base URL. */
  get url(): string {
    return this.#client.baseUrl;
  }

  async openSession(
    scope: SessionScope,
    maxHoldS?: number | typeof ADOPT_DEPLOYMENT_WINDOW,
  ): Promise<SessionRecord> {
    const adopt = maxHoldS === ADOPT_DEPLOYMENT_WINDOW || maxHoldS === undefined;
    if (!adopt && (typeof maxHoldS !== 'number' || !Number.isFinite(maxHoldS) || maxHoldS < 0))
      throw new NovarchError(
        `maxHoldS must be a finite number of seconds ≥ 0 or augur.ADOPT_DEPLOYMENT_WINDOW; got ${String(maxHoldS)}`,
      );
    const { sessionSecret, ...session } = await this.#client.request('POST', '/v1/sessions', {
      body: { ...scope, ...(adopt ? {} : { maxHoldS }) },
      schema: OpenedSessionSchema,
    });
    if (sessionSecret !== undefined) this.#secrets.set(session.id, sessionSecret);
    return session;
  }

  /** The header that proves to the server that this engine opened the session. */
  #secretOf(sessionId: string): Record<string, string> {
    const secret = this.#secrets.get(sessionId);
    return secret === undefined ? {} : { [SESSION_SECRET_HEADER]: secret };
  }

  async decide(
    session: SessionRecord,
    proposed: ProposedAction,
    options: DecideOptions = {},
  ): Promise<Decision> {
    const left =
      options.deadline === undefined ? undefined : Math.max(0, Math.floor(options.deadline - Date.now()));
    try {
      return await this.#client.request('POST', `/v1/sessions/${encodeURIComponent(session.id)}/actions`, {
        body: {
          ...proposed,
          ...(left === undefined ? {} : { deadlineInMs: left }),
          ...(options.release === undefined ? {} : { release: options.release }),
          ...(options.editOf === undefined ? {} : { editOf: options.editOf }),
        },
        headers: this.#secretOf(session.id),
        schema: DecisionSchema,
        timeoutMs: left === undefined ? DECIDE_TIMEOUT_MS : Math.max(1_000, left),
      });
    } catch (error) {
      // The server recorded the action before its decision failed: the refusal belongs on it
      // (and is not recorded again when the server stored it), as with an engine in process.
      const failed = error instanceof NovarchServerError ? error.failedAction : undefined;
      if (failed === undefined) throw error;
      throw new DecisionError(failed.actionId, error, { refusalRecorded: failed.refusalRecorded });
    }
  }

  release(decision: Pick<Decision, 'action'>): Promise<ReleaseResult> {
    const { action } = decision;
    return this.#client.request(
      'POST',
      `/v1/sessions/${encodeURIComponent(action.sessionId)}/actions/${encodeURIComponent(action.id)}/release`,
      { headers: this.#secretOf(action.sessionId), schema: ReleaseResultSchema },
    );
  }

  /**
   * Long-polls the hold until it is decided (by an operator, or closed at its deadline by the
   * server). An abort closes it at once (`timed_out`, aborted). A server lost while waiting
   * rejects after bounded retries: the caller refuses the write, and the hold, no longer checked
   * in on, turns abandoned, so no operator approves a write nothing would run.
   */
  async awaitHold(hold: HoldRecord, signal?: AbortSignal): Promise<HoldRecord> {
    const path = `/v1/holds/${encodeURIComponent(hold.id)}`;
    const waiter = { pid: process.pid, host: os.hostname() };
    const headers = this.#secretOf(hold.sessionId);
    for (;;) {
      if (signal?.aborted)
        return this.#client.request('POST', `${path}/abort`, { headers, schema: HoldRecordSchema });
      try {
        const current = await this.#client.request('POST', `${path}/wait`, {
          headers,
          body: { timeoutMs: this.#pollMs, waiter },
          schema: HoldRecordSchema,
          idempotent: true,
          timeoutMs: this.#pollMs + POLL_SLACK_MS,
          signal,
        });
        if (current.status !== 'pending') return current;
      } catch (error) {
        if (!signal?.aborted) throw error;
      }
    }
  }

  async isKilled(sessionId: string): Promise<SessionRecord | undefined> {
    const session = await this.#client.request('GET', `/v1/sessions/${encodeURIComponent(sessionId)}`, {
      schema: SessionRecordSchema,
      idempotent: true,
    });
    return session.killedAt === undefined ? undefined : session;
  }

  #recordEvidence(evidence: Omit<EvidenceRecord, 'id'>): Promise<EvidenceRecord> {
    const { sessionId, ...body } = evidence;
    return this.#client.request('POST', `/v1/sessions/${encodeURIComponent(sessionId)}/evidence`, {
      headers: this.#secretOf(sessionId),
      body,
      schema: EvidenceRecordSchema,
    });
  }

  #recordRefusal(refusal: CallRefusal): Promise<{ action: ActionRecord; verdict: VerdictRecord }> {
    const { sessionId, ...body } = refusal;
    return this.#client.request('POST', `/v1/sessions/${encodeURIComponent(sessionId)}/refusals`, {
      headers: this.#secretOf(sessionId),
      body,
      schema: RefusalRecordSchema,
    });
  }

  async #latch(id: string, reason: string, details?: KillDetails): Promise<void> {
    const source = details?.source ?? 'gate';
    if (source === 'operator')
      throw new NovarchError(
        'an agent key cannot kill a session as an operator: use `novarch sessions kill --server URL`',
      );
    await this.#client.request('POST', `/v1/sessions/${encodeURIComponent(id)}/latch`, {
      headers: this.#secretOf(id),
      body: {
        reason,
        source,
        ...(details?.actionId === undefined ? {} : { actionId: details.actionId }),
        ...(details?.ruleIds === undefined ? {} : { ruleIds: details.ruleIds }),
        ...(details?.evidenceIds === undefined ? {} : { evidenceIds: details.evidenceIds }),
      },
      schema: SessionRecordSchema,
    });
  }

  #audit(filter: AuditFilter = {}): Promise<AuditEntry[]> {
    return this.#client.request('GET', '/v1/audit', {
      query: {
        tenantId: filter.tenantId,
        agentId: filter.agentId,
        sessionId: filter.sessionId,
        verdict: filter.verdict,
        limit: filter.limit === undefined ? undefined : String(filter.limit),
      },
      schema: z.array(AuditEntrySchema),
      idempotent: true,
    });
  }
}

/** An engine on a Novarch server (see `RemoteEngine`). */
export function remoteEngine(options: RemoteEngineOptions): RemoteEngine {
  return new RemoteEngine(options);
}

/**
 * The remote engine `$NOVARCH_SERVER` names, with the key in `$NOVARCH_API_KEY`; undefined when
 * `NOVARCH_SERVER` is not set. A server without a key is an error that names the variable.
 */
export function remoteEngineFromEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
): RemoteEngine | undefined {
  const url = env[SERVER_ENV_VARIABLE]?.trim();
  if (!url) return undefined;
  const apiKey = env[API_KEY_ENV_VARIABLE]?.trim();
  if (!apiKey)
    throw new NovarchError(
      `${SERVER_ENV_VARIABLE} is set (${url}) but ${API_KEY_ENV_VARIABLE} is not: set it to an agent key of this tenant (\`novarch keys create --tenant T --name N\` prints one)`,
    );
  return new RemoteEngine({ url, apiKey });
}

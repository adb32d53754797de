import { z } from 'zod';
import type { PendingHoldState } from '../model/hold-state.js';
import type { AuditEntry, AuditFilter } from '../model/novarch-store.js';
import type { HoldStatus, SessionRecord } from '../model/records.js';
import type { OperatorDecisionResult } from '../operations/decide-hold-as-operator.js';
import type { HoldDetail, HoldSummary } from '../operations/hold-operations.js';
import { AuditVerificationSchema } from '../wire/audit-chain-schemas.js';
import {
  AuditEntrySchema,
  HoldDetailSchema,
  HoldSummarySchema,
  OperatorDecisionResultSchema,
  SessionRecordSchema,
} from '../wire/record-schemas.js';
import { NovarchHttpClient } from './novarch-http-client.js';
import { RemoteIdentities } from './remote-identities.js';
import { RemoteRules } from './remote-rules.js';

/** The operator CLI's `--server` mode: the same operations, done by the server under the token's operator. */
export class RemoteOperatorClient {
  readonly #client: NovarchHttpClient;

  constructor(options: { url: string; token: string }) {
    this.#client = new NovarchHttpClient({ url: options.url, credential: options.token });
  }

  get url(): string {
    return this.#client.baseUrl;
  }

  /** Agent keys and operator tokens, through the server's `/v1/admin` routes (an admin token). */
  identities(): RemoteIdentities {
    return new RemoteIdentities(this.#client);
  }

  /** The teams' rules, through the server's `/v1/rules` routes (an admin token). */
  rules(): RemoteRules {
    return new RemoteRules(this.#client);
  }

  listHolds(filter: {
    status?: HoldStatus | PendingHoldState | undefined;
    sessionId?: string | undefined;
  }): Promise<HoldSummary[]> {
    return this.#client.request('GET', '/v1/holds', {
      query: { status: filter.status, sessionId: filter.sessionId },
      schema: z.array(HoldSummarySchema),
      idempotent: true,
    });
  }

  showHold(id: string): Promise<HoldDetail> {
    return this.#client.request('GET', `/v1/holds/${encodeURIComponent(id)}`, {
      schema: HoldDetailSchema,
      idempotent: true,
    });
  }

  decideHold(
    id: string,
    decision: {
      decision: 'approve' | 'deny' | 'skip';
      rationale?: string | undefined;
      force?: boolean | undefined;
      input?: Record<string, unknown> | undefined;
    },
  ): Promise<OperatorDecisionResult> {
    return this.#client.request('POST', `/v1/holds/${encodeURIComponent(id)}/decision`, {
      body: {
        decision: decision.decision,
        ...(decision.rationale === undefined ? {} : { rationale: decision.rationale }),
        ...(decision.force === undefined ? {} : { force: decision.force }),
        ...(decision.input === undefined ? {} : { input: decision.input }),
      },
      schema: OperatorDecisionResultSchema,
    });
  }

  listSessions(filter: {
    tenantId?: string | undefined;
    agentId?: string | undefined;
    killed?: boolean | undefined;
  }): Promise<SessionRecord[]> {
    return this.#client.request('GET', '/v1/sessions', {
      query: {
        tenantId: filter.tenantId,
        agentId: filter.agentId,
        killed: filter.killed === undefined ? undefined : String(filter.killed),
      },
      schema: z.array(SessionRecordSchema),
      idempotent: true,
    });
  }

  killSession(id: string, reason: string): Promise<SessionRecord> {
    return this.#client.request('POST', `/v1/sessions/${encodeURIComponent(id)}/kill`, {
      body: { reason },
      schema: SessionRecordSchema,
    });
  }

  audit(filter: AuditFilter): Promise<AuditEntry[]> {
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

  /** `GET /v1/audit/verify`: the chains this operator may see whole, checked on the server. */
  verifyAudit(filter: { tenantId?: string }): Promise<z.infer<typeof AuditVerificationSchema>> {
    return this.#client.request('GET', '/v1/audit/verify', {
      query: { tenantId: filter.tenantId },
      schema: AuditVerificationSchema,
      idempotent: true,
    });
  }
}

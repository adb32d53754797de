import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type {
  ActionRelease,
  AuditEntry,
  AuditFilter,
  CallRefusal,
  HoldWaiterIdentity,
  NovarchDatabaseStore,
  ReleaseResult,
  SessionBinding,
} from '../model/novarch-store.js';
import {
  type ActionRecord,
  type EvidenceRecord,
  HOLD_SCHEMA_VERSION,
  type HoldRecord,
  type HoldStatus,
  type KillDetails,
  type SessionRecord,
  type SessionScope,
  type VerdictRecord,
} from '../model/records.js';
import type {
  RuleSetPush,
  RuleSetPushResult,
  StoredRuleSet,
  StoredRuleSetSummary,
} from '../model/stored-rule-set.js';
import type {
  NewWebhookDelivery,
  WebhookAttempt,
  WebhookDeliveryFilter,
  WebhookDeliveryRecord,
} from '../model/webhook-delivery.js';
import { errorMessage } from '../support.js';
import { decideHold } from './decide-hold.js';
import { toJsonColumn } from './json-column.js';
import { NovarchStoreError, UnknownRecordError } from './novarch-store-error.js';
import { osUser } from './os-user.js';
import { parseHoldRow } from './parse-hold-row.js';
import { parseActionRow, parseEvidenceRow, parseSessionRow, parseVerdictRow } from './parse-record-rows.js';
import { queryAudit } from './query-audit.js';
import { getRuleSet, listRuleSets, pushRuleSet } from './rule-set-queries.js';
import type { StoreDialect } from './store-dialect.js';
import type { StoreTables } from './store-tables.js';
import { redactTextWith, type StoredValuePolicy } from './stored-value-policy.js';
import {
  listPendingWebhookDeliveries,
  listWebhookDeliveries,
  recordWebhookAttempt,
  recordWebhookDelivery,
} from './webhook-delivery-queries.js';

/** How a `KyselyNovarchStore` guards its operations (the SQLite store sets them all). */
export interface KyselyStoreGuards {
  /** Throws when the store's location is no longer the store that was opened (deleted, replaced). */
  verifyLocation?: () => void;
  /** Redacts and bounds tool inputs and outputs before storage. */
  storedValue?: StoredValuePolicy;
  /** How long an operation may wait for another connection's lock, in ms, before it fails. */
  lockWaitMs?: number;
  /** Runs when the store closes, before its connection does (the SQLite store's checkpointer). */
  beforeClose?: () => Promise<void>;
  /** The reason a database error gives, for messages (the PostgreSQL store masks its password). */
  describeError?: (error: unknown) => string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const identity: StoredValuePolicy = (value) => value;

/** Fails unless `actionId` is an action of session `sessionId`. */
async function requireOwnAction(
  db: Kysely<StoreTables>,
  sessionId: string,
  actionId: string,
  outcome: string,
): Promise<void> {
  const found = await db
    .selectFrom('actions')
    .select('id')
    .where('id', '=', actionId)
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
  if (found === undefined)
    throw new UnknownRecordError(
      'action',
      actionId,
      `No action ${actionId} in session ${sessionId}: ${outcome}.`,
    );
}

/** Fails unless every id of `evidenceIds` is evidence of session `sessionId`. */
async function requireOwnEvidence(
  db: Kysely<StoreTables>,
  sessionId: string,
  evidenceIds: readonly string[],
  outcome: string,
): Promise<void> {
  const wanted = [...new Set(evidenceIds)];
  if (wanted.length === 0) return;
  const found = await db
    .selectFrom('evidence')
    .select('id')
    .where('id', 'in', wanted)
    .where('session_id', '=', sessionId)
    .execute();
  if (found.length === wanted.length) return;
  const known = new Set(found.map((row) => row.id));
  const missing = wanted.filter((id) => !known.has(id));
  throw new UnknownRecordError(
    'evidence',
    missing.join(', '),
    `No evidence ${missing.join(', ')} in session ${sessionId}: ${outcome}.`,
  );
}

/** A fresh id such as `hold_0b7f…`: the prefix tells an operator what the id names. */
function newId(prefix: string): string {
  return `${prefix}_${randomUUID()}`;
}

/**
 * `NovarchStore` over kysely, in queries every supported dialect runs alike: the SQLite store
 * (`open-sqlite-store.ts`) and the PostgreSQL store (`open-postgres-store.ts`) only differ in how
 * they connect and lock.
 * Each method is one statement (or one transaction), committed before it resolves.
 */
export class KyselyNovarchStore implements NovarchDatabaseStore {
  readonly #db: Kysely<StoreTables>;
  readonly #dialect: StoreDialect;
  readonly #location: string;
  readonly #guards: KyselyStoreGuards;
  readonly #storedValue: StoredValuePolicy;
  #closed = false;

  constructor(
    db: Kysely<StoreTables>,
    dialect: StoreDialect,
    location: string,
    guards: KyselyStoreGuards = {},
  ) {
    this.#db = db;
    this.#dialect = dialect;
    this.#location = location;
    this.#guards = guards;
    this.#storedValue = guards.storedValue ?? identity;
  }

  /**
   * Runs one store operation; anything but a `NovarchStoreError` is wrapped in one that names it.
   * Each operation is one statement or one transaction, so one that found another connection
   * holding the write lock changed nothing: it is run again after a short sleep (the event loop
   * goes on meanwhile) until `lockWaitMs` has passed, then it fails (and the gate refuses).
   */
  async #run<T>(operation: string, work: (db: Kysely<StoreTables>) => Promise<T>): Promise<T> {
    if (this.#closed) {
      throw new NovarchStoreError(`Cannot ${operation}: the Novarch store at ${this.#location} is closed.`);
    }
    const started = Date.now();
    const lockWaitMs = this.#guards.lockWaitMs ?? 0;
    for (let attempt = 0; ; attempt++) {
      try {
        this.#guards.verifyLocation?.();
        return await work(this.#db);
      } catch (error) {
        if (error instanceof NovarchStoreError) throw error;
        const waited = Date.now() - started;
        if (this.#dialect.isLockBusy(error) && waited < lockWaitMs) {
          // Exponential with jitter (2, 4, … 64 ms), so waiting processes do not retry in step.
          const backoff = Math.min(64, 2 ** (attempt + 1)) * (0.5 + Math.random() / 2);
          await sleep(Math.min(backoff, lockWaitMs - waited));
          continue;
        }
        const reason = this.#guards.describeError?.(error) ?? errorMessage(error);
        const busy = this.#dialect.isLockBusy(error)
          ? ` (another process held the store's write lock for more than ${lockWaitMs} ms)`
          : '';
        throw new NovarchStoreError(
          `Cannot ${operation} in the Novarch store at ${this.#location}: ${reason}${busy}`,
          { cause: error },
        );
      }
    }
  }

  /** Like `#run`, for the write of a decision: durable once it resolves, even across a power loss. */
  #decide<T>(operation: string, work: (db: Kysely<StoreTables>) => Promise<T>): Promise<T> {
    return this.#run(operation, (db) => this.#dialect.durably(db, work));
  }

  createSession(
    scope: SessionScope,
    holdWaitSeconds: number,
    binding?: SessionBinding,
  ): Promise<SessionRecord> {
    return this.#run('create a session', async (db) => {
      if (!Number.isFinite(holdWaitSeconds) || holdWaitSeconds < 0) {
        throw new NovarchStoreError(`holdWaitSeconds must be a finite number ≥ 0; got ${holdWaitSeconds}.`);
      }
      const row = {
        id: newId('ses'),
        tenant_id: scope.tenantId,
        team_id: scope.teamId,
        agent_id: scope.agentId,
        started_at: new Date().toISOString(),
        hold_wait_seconds: holdWaitSeconds,
        killed_at: null,
        kill_reason: null,
        kill_source: null,
        kill_action_id: null,
        kill_citations_json: null,
        killed_by_os_user: null,
      };
      const record = parseSessionRow(row, 'new');
      if (binding === undefined) {
        await db.insertInto('sessions').values(row).execute();
        return record;
      }
      // One transaction: a session is never seen without the binding it was opened with.
      await this.#dialect.transaction(db, async (locked) => {
        await locked.insertInto('sessions').values(row).execute();
        await locked
          .insertInto('session_bindings')
          .values({ session_id: row.id, agent_key_id: binding.agentKeyId, secret_hash: binding.secretHash })
          .execute();
      });
      return record;
    });
  }

  getSessionBinding(id: string): Promise<SessionBinding | undefined> {
    return this.#run(`read the binding of session ${id}`, async (db) => {
      const row = await db
        .selectFrom('session_bindings')
        .select(['agent_key_id', 'secret_hash'])
        .where('session_id', '=', id)
        .executeTakeFirst();
      return row === undefined ? undefined : { agentKeyId: row.agent_key_id, secretHash: row.secret_hash };
    });
  }

  getSession(id: string): Promise<SessionRecord | undefined> {
    return this.#run(`read session ${id}`, async (db) => {
      const row = await db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : parseSessionRow(row);
    });
  }

  listSessions(
    filter: { tenantId?: string; agentId?: string; killed?: boolean } = {},
  ): Promise<SessionRecord[]> {
    return this.#run('list sessions', async (db) => {
      const rows = await db
        .selectFrom('sessions')
        .selectAll()
        .$if(filter.tenantId !== undefined, (query) => query.where('tenant_id', '=', filter.tenantId ?? ''))
        .$if(filter.agentId !== undefined, (query) => query.where('agent_id', '=', filter.agentId ?? ''))
        .$if(filter.killed === true, (query) => query.where('killed_at', 'is not', null))
        .$if(filter.killed === false, (query) => query.where('killed_at', 'is', null))
        .orderBy('seq', 'asc')
        .execute();
      return rows.map((row) => parseSessionRow(row));
    });
  }

  killSession(id: string, reason: string, details: KillDetails = { source: 'operator' }): Promise<void> {
    return this.#decide(`kill session ${id}`, async (db) => {
      // What the kill cites must be the session's own: another session's action or evidence
      // would show in its audit as the grounds of this kill.
      if (details.actionId !== undefined)
        await requireOwnAction(db, id, details.actionId, 'nothing was killed');
      await requireOwnEvidence(db, id, details.evidenceIds ?? [], 'nothing was killed');
      // The latch is set once, atomically: a second kill (from any process) changes nothing.
      const result = await db
        .updateTable('sessions')
        .set({
          killed_at: new Date().toISOString(),
          kill_reason: reason,
          kill_source: details.source,
          kill_action_id: details.actionId ?? null,
          kill_citations_json: JSON.stringify({
            ruleIds: details.ruleIds ?? [],
            evidenceIds: details.evidenceIds ?? [],
          }),
          killed_by_os_user: osUser(),
        })
        .where('id', '=', id)
        .where('killed_at', 'is', null)
        .executeTakeFirst();
      if (result.numUpdatedRows > 0n) return;
      const existing = await db.selectFrom('sessions').select('id').where('id', '=', id).executeTakeFirst();
      if (existing === undefined)
        throw new UnknownRecordError('session', id, `No session ${id}: nothing was killed.`);
    });
  }

  recordEvidence(evidence: Omit<EvidenceRecord, 'id'>): Promise<EvidenceRecord> {
    return this.#run(`record evidence for session ${evidence.sessionId}`, async (db) => {
      const row = {
        id: newId('evd'),
        session_id: evidence.sessionId,
        tool_name: evidence.toolName,
        input_json: toJsonColumn(this.#storedValue(evidence.input), 'the evidence input'),
        output_json: toJsonColumn(this.#storedValue(evidence.output), 'the evidence output'),
        is_error: evidence.isError ? 1 : 0,
        started_at: evidence.startedAt,
        finished_at: evidence.finishedAt,
      };
      // Parse before writing: a row that could not be read back must not be stored.
      const record = parseEvidenceRow(row, 'new');
      await db.insertInto('evidence').values(row).execute();
      return record;
    });
  }

  listEvidence(sessionId: string): Promise<EvidenceRecord[]> {
    return this.#run(`list evidence of session ${sessionId}`, async (db) => {
      const rows = await db
        .selectFrom('evidence')
        .selectAll()
        .where('session_id', '=', sessionId)
        .orderBy('seq', 'asc')
        .execute();
      return rows.map((row) => parseEvidenceRow(row));
    });
  }

  /** An `actions` row for `action`, its input redacted and bounded. */
  #actionRow(action: Omit<ActionRecord, 'id' | 'createdAt' | 'releasedAt'>) {
    return {
      id: newId('act'),
      session_id: action.sessionId,
      action_type: action.actionType,
      tool_name: action.toolName,
      input_json: toJsonColumn(this.#storedValue(action.input), 'the action input'),
      context_json: toJsonColumn(action.context, 'the action context') ?? 'null',
      reasoning: action.reasoning === undefined ? null : redactTextWith(this.#storedValue, action.reasoning),
      created_at: new Date().toISOString(),
      released_at: null,
    };
  }

  recordAction(action: Omit<ActionRecord, 'id' | 'createdAt'>): Promise<ActionRecord> {
    return this.#run(`record an action for session ${action.sessionId}`, async (db) => {
      const row = this.#actionRow(action);
      const record = parseActionRow(row, 'new');
      await db.insertInto('actions').values(row).execute();
      return record;
    });
  }

  /** A `verdicts` row, checked before it is written. */
  #verdictRow(verdict: Omit<VerdictRecord, 'id' | 'decidedAt' | 'osUser'>) {
    const row = {
      id: newId('vrd'),
      action_id: verdict.actionId,
      session_id: verdict.sessionId,
      kind: verdict.verdict.kind,
      citations_json: toJsonColumn(verdict.verdict.citations, 'the verdict citations') ?? 'null',
      source: verdict.source,
      decided_at: new Date().toISOString(),
      os_user: osUser(),
    };
    return { row, record: parseVerdictRow(row, 'new') };
  }

  recordVerdict(verdict: Omit<VerdictRecord, 'id' | 'decidedAt' | 'osUser'>): Promise<VerdictRecord> {
    return this.#decide(`record a verdict on action ${verdict.actionId}`, async (db) => {
      const { row, record } = this.#verdictRow(verdict);
      // Only on an action of its own session. No transaction is needed: an action's session never
      // changes once it is recorded.
      await requireOwnAction(db, verdict.sessionId, verdict.actionId, 'nothing was recorded');
      await db.insertInto('verdicts').values(row).execute();
      return record;
    });
  }

  releaseAction(release: ActionRelease): Promise<ReleaseResult> {
    const { actionId, sessionId } = release;
    return this.#run(`let action ${actionId} run`, (db) =>
      this.#dialect.transaction(
        db,
        async (locked) => {
          // No kill can land between this read and the release: SQLite's transaction holds the
          // write lock; PostgreSQL locks the session's row, which a kill must update.
          const sessionRow = await locked
            .selectFrom('sessions')
            .selectAll()
            .where('id', '=', sessionId)
            .$if(this.#dialect.rowLocks, (query) => query.forUpdate())
            .executeTakeFirst();
          if (sessionRow === undefined)
            throw new UnknownRecordError(
              'session',
              sessionId,
              `No session ${sessionId}: nothing was let run.`,
            );
          const session = parseSessionRow(sessionRow);
          if (release.verdict !== undefined) {
            const { row } = this.#verdictRow({
              actionId,
              sessionId,
              verdict: release.verdict,
              source: 'judge',
            });
            await locked.insertInto('verdicts').values(row).execute();
          }
          if (session.killedAt !== undefined) {
            const { row } = this.#verdictRow({
              actionId,
              sessionId,
              source: 'gate',
              verdict: {
                kind: 'kill',
                citations: {
                  ruleIds: session.kill?.ruleIds ?? [],
                  evidenceIds: [],
                  rationale: `the session was stopped before this write could run (${session.killReason ?? 'no reason stored'}); it did not run`,
                },
              },
            });
            await locked.insertInto('verdicts').values(row).execute();
            return { released: false, session } as const;
          }
          const releasedAt = new Date().toISOString();
          const result = await locked
            .updateTable('actions')
            .set({ released_at: releasedAt })
            .where('id', '=', actionId)
            .where('session_id', '=', sessionId)
            .where('released_at', 'is', null)
            .executeTakeFirst();
          if (result.numUpdatedRows === 0n) {
            throw new NovarchStoreError(
              `Action ${actionId} of session ${sessionId} is unknown or already ran.`,
            );
          }
          return { released: true, releasedAt } as const;
        },
        { durable: true },
      ),
    );
  }

  recordRefusal(refusal: CallRefusal): Promise<{ action: ActionRecord; verdict: VerdictRecord }> {
    return this.#run(`record a refused call of session ${refusal.sessionId}`, (db) =>
      this.#dialect.transaction(db, async (locked) => {
        let action: ActionRecord;
        if (refusal.actionId !== undefined) {
          const row = await locked
            .selectFrom('actions')
            .selectAll()
            .where('id', '=', refusal.actionId)
            .where('session_id', '=', refusal.sessionId)
            .executeTakeFirst();
          if (row === undefined)
            throw new UnknownRecordError(
              'action',
              refusal.actionId,
              `No action ${refusal.actionId} in session ${refusal.sessionId}: no refusal recorded.`,
            );
          action = parseActionRow(row);
        } else if (refusal.call !== undefined) {
          const row = this.#actionRow({ ...refusal.call, sessionId: refusal.sessionId });
          action = parseActionRow(row, 'new');
          await locked.insertInto('actions').values(row).execute();
        } else {
          throw new NovarchStoreError('A refused call needs its action id or the call itself.');
        }
        await requireOwnEvidence(
          locked,
          refusal.sessionId,
          refusal.citations.evidenceIds,
          'no refusal recorded',
        );
        const { row, record } = this.#verdictRow({
          actionId: action.id,
          sessionId: refusal.sessionId,
          source: refusal.source,
          verdict: { kind: 'kill', citations: refusal.citations },
        });
        await locked.insertInto('verdicts').values(row).execute();
        return { action, verdict: record };
      }),
    );
  }

  createHold(actionId: string, sessionId: string, deadline: Date): Promise<HoldRecord> {
    return this.#decide(`hold action ${actionId}`, async (db) => {
      if (Number.isNaN(deadline.getTime()))
        throw new NovarchStoreError('A hold needs a valid deadline date.');
      const row = {
        id: newId('hold'),
        schema_version: HOLD_SCHEMA_VERSION,
        action_id: actionId,
        session_id: sessionId,
        status: 'pending',
        created_at: new Date().toISOString(),
        deadline: deadline.toISOString(),
        decided_at: null,
        decided_by: null,
        rationale: null,
        waiter_seen_at: null,
        waiter_pid: null,
        waiter_host: null,
        decided_by_os_user: null,
      };
      const record = parseHoldRow(row, 'new');
      await requireOwnAction(db, sessionId, actionId, 'nothing was recorded');
      await db.insertInto('holds').values(row).execute();
      return record;
    });
  }

  getHold(id: string): Promise<HoldRecord | undefined> {
    return this.#run(`read hold ${id}`, async (db) => {
      const row = await db.selectFrom('holds').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : parseHoldRow(row);
    });
  }

  listHolds(filter: { status?: HoldStatus; sessionId?: string } = {}): Promise<HoldRecord[]> {
    return this.#run('list holds', async (db) => {
      const rows = await db
        .selectFrom('holds')
        .selectAll()
        .$if(filter.status !== undefined, (query) => query.where('status', '=', filter.status ?? ''))
        .$if(filter.sessionId !== undefined, (query) =>
          query.where('session_id', '=', filter.sessionId ?? ''),
        )
        .orderBy('seq', 'asc')
        .execute();
      return rows.map((row) => parseHoldRow(row));
    });
  }

  checkInHoldWaiter(id: string, waiter: HoldWaiterIdentity): Promise<void> {
    // On #run, not #decide: a check-in is refreshed every few seconds and only has to survive a
    // killed process; an fsync each time would cost the waiting agent for nothing.
    return this.#run(`record a check-in on hold ${id}`, async (db) => {
      if (!Number.isSafeInteger(waiter.pid) || waiter.pid < 0) {
        throw new NovarchStoreError(`A hold waiter's pid must be a whole number ≥ 0; got ${waiter.pid}.`);
      }
      // Only while pending: a check-in never lands on a decided hold, and never races a decision.
      const result = await db
        .updateTable('holds')
        .set({ waiter_seen_at: new Date().toISOString(), waiter_pid: waiter.pid, waiter_host: waiter.host })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (result.numUpdatedRows > 0n) return;
      const existing = await db.selectFrom('holds').select('id').where('id', '=', id).executeTakeFirst();
      if (existing === undefined)
        throw new UnknownRecordError('hold', id, `No hold ${id}: no check-in was recorded.`);
    });
  }

  decideHold(
    id: string,
    status: Exclude<HoldStatus, 'pending'>,
    decidedBy: string,
    rationale?: string,
  ): Promise<HoldRecord> {
    return this.#decide(`decide hold ${id}`, (db) =>
      decideHold(db, { id, status, decidedBy, rationale, osUser: osUser() }),
    );
  }

  audit(filter?: AuditFilter): Promise<AuditEntry[]> {
    return this.#run('read the audit trail', (db) => queryAudit(db, filter));
  }

  pushRuleSet(push: RuleSetPush): Promise<RuleSetPushResult> {
    // Under the write lock: the next version number is read and written by one pusher at a time.
    return this.#run(`push rules of team ${push.team}`, (db) =>
      this.#dialect.withWriteLock(db, (locked) => pushRuleSet(locked, push, osUser()), { durable: true }),
    );
  }

  getRuleSet(team: string, version?: number): Promise<StoredRuleSet | undefined> {
    const which = version === undefined ? 'the latest rules' : `version ${version} of the rules`;
    return this.#run(`read ${which} of team ${team}`, (db) => getRuleSet(db, team, version));
  }

  listRuleSets(filter?: { team?: string }): Promise<StoredRuleSetSummary[]> {
    return this.#run('list rule sets', (db) => listRuleSets(db, filter));
  }

  recordWebhookDelivery(delivery: NewWebhookDelivery): Promise<WebhookDeliveryRecord> {
    return this.#run(`record a webhook delivery for tenant ${delivery.tenantId}`, (db) =>
      recordWebhookDelivery(db, delivery),
    );
  }

  recordWebhookAttempt(id: string, attempt: WebhookAttempt): Promise<WebhookDeliveryRecord> {
    return this.#run(`record an attempt of webhook delivery ${id}`, (db) =>
      recordWebhookAttempt(db, id, attempt),
    );
  }

  listWebhookDeliveries(tenantId: string, filter?: WebhookDeliveryFilter): Promise<WebhookDeliveryRecord[]> {
    return this.#run(`list webhook deliveries of tenant ${tenantId}`, (db) =>
      listWebhookDeliveries(db, tenantId, filter),
    );
  }

  listPendingWebhookDeliveries(): Promise<WebhookDeliveryRecord[]> {
    return this.#run('list pending webhook deliveries', (db) => listPendingWebhookDeliveries(db));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#guards.beforeClose?.();
    await this.#db.destroy();
  }
}

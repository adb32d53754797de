import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AuditEntry, AuditFilter, HoldWaiterIdentity, NovarchStore } from '../model/novarch-store.js';
import {
  type ActionRecord,
  type EvidenceRecord,
  HOLD_SCHEMA_VERSION,
  type HoldRecord,
  type HoldStatus,
  type SessionRecord,
  type SessionScope,
  type VerdictRecord,
} from '../model/records.js';
import { decideHold } from './decide-hold.js';
import { toJsonColumn } from './json-column.js';
import { NovarchStoreError } from './novarch-store-error.js';
import { parseHoldRow } from './parse-hold-row.js';
import { parseActionRow, parseEvidenceRow, parseSessionRow, parseVerdictRow } from './parse-record-rows.js';
import { queryAudit } from './query-audit.js';
import type { StoreDialect } from './store-dialect.js';
import type { StoreTables } from './store-tables.js';

/** A fresh id such as `hold_0b7f…`: the prefix tells an operator what the id names. */
function newId(prefix: string): string {
  return `${prefix}_${randomUUID()}`;
}

/**
 * `NovarchStore` over kysely, in queries every supported dialect runs alike: the SQLite store
 * (`open-sqlite-store.ts`) and a later PostgreSQL store only differ in how they connect and lock.
 * Each method is one statement (or one transaction), committed before it resolves.
 */
export class KyselyNovarchStore implements NovarchStore {
  readonly #db: Kysely<StoreTables>;
  readonly #dialect: StoreDialect;
  readonly #location: string;
  #closed = false;

  constructor(db: Kysely<StoreTables>, dialect: StoreDialect, location: string) {
    this.#db = db;
    this.#dialect = dialect;
    this.#location = location;
  }

  /** Runs one store operation; anything but a `NovarchStoreError` is wrapped in one that names it. */
  async #run<T>(operation: string, work: (db: Kysely<StoreTables>) => Promise<T>): Promise<T> {
    if (this.#closed) {
      throw new NovarchStoreError(`Cannot ${operation}: the Novarch store at ${this.#location} is closed.`);
    }
    try {
      return await work(this.#db);
    } catch (error) {
      if (error instanceof NovarchStoreError) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new NovarchStoreError(
        `Cannot ${operation} in the Novarch store at ${this.#location}: ${reason}`,
        {
          cause: error,
        },
      );
    }
  }

  /** Like `#run`, for the write of a decision: durable once it resolves, even across a power loss. */
  #decide<T>(operation: string, work: (db: Kysely<StoreTables>) => Promise<T>): Promise<T> {
    return this.#run(operation, (db) => this.#dialect.durably(db, work));
  }

  createSession(scope: SessionScope, holdWaitSeconds: number): Promise<SessionRecord> {
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
      };
      const record = parseSessionRow(row, 'new');
      await db.insertInto('sessions').values(row).execute();
      return record;
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

  killSession(id: string, reason: string): Promise<void> {
    return this.#decide(`kill session ${id}`, async (db) => {
      // The latch is set once, atomically: a second kill (from any process) changes nothing.
      const result = await db
        .updateTable('sessions')
        .set({ killed_at: new Date().toISOString(), kill_reason: reason })
        .where('id', '=', id)
        .where('killed_at', 'is', null)
        .executeTakeFirst();
      if (result.numUpdatedRows > 0n) return;
      const existing = await db.selectFrom('sessions').select('id').where('id', '=', id).executeTakeFirst();
      if (existing === undefined) throw new NovarchStoreError(`No session ${id}: nothing was killed.`);
    });
  }

  recordEvidence(evidence: Omit<EvidenceRecord, 'id'>): Promise<EvidenceRecord> {
    return this.#run(`record evidence for session ${evidence.sessionId}`, async (db) => {
      const row = {
        id: newId('evd'),
        session_id: evidence.sessionId,
        tool_name: evidence.toolName,
        input_json: toJsonColumn(evidence.input, 'the evidence input'),
        output_json: toJsonColumn(evidence.output, 'the evidence output'),
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

  recordAction(action: Omit<ActionRecord, 'id' | 'createdAt'>): Promise<ActionRecord> {
    return this.#run(`record an action for session ${action.sessionId}`, async (db) => {
      const row = {
        id: newId('act'),
        session_id: action.sessionId,
        action_type: action.actionType,
        tool_name: action.toolName,
        input_json: toJsonColumn(action.input, 'the action input'),
        context_json: toJsonColumn(action.context, 'the action context') ?? 'null',
        reasoning: action.reasoning ?? null,
        created_at: new Date().toISOString(),
      };
      const record = parseActionRow(row, 'new');
      await db.insertInto('actions').values(row).execute();
      return record;
    });
  }

  recordVerdict(verdict: Omit<VerdictRecord, 'id' | 'decidedAt'>): Promise<VerdictRecord> {
    return this.#decide(`record a verdict on action ${verdict.actionId}`, async (db) => {
      const row = {
        id: newId('vrd'),
        action_id: verdict.actionId,
        session_id: verdict.sessionId,
        kind: verdict.verdict.kind,
        citations_json: toJsonColumn(verdict.verdict.citations, 'the verdict citations') ?? 'null',
        source: verdict.source,
        decided_at: new Date().toISOString(),
      };
      const record = parseVerdictRow(row, 'new');
      await db.insertInto('verdicts').values(row).execute();
      return record;
    });
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
      };
      const record = parseHoldRow(row, 'new');
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
      if (existing === undefined) throw new NovarchStoreError(`No hold ${id}: no check-in was recorded.`);
    });
  }

  decideHold(
    id: string,
    status: Exclude<HoldStatus, 'pending'>,
    decidedBy: string,
    rationale?: string,
  ): Promise<HoldRecord> {
    return this.#decide(`decide hold ${id}`, (db) => decideHold(db, { id, status, decidedBy, rationale }));
  }

  audit(filter?: AuditFilter): Promise<AuditEntry[]> {
    return this.#run('read the audit trail', (db) => queryAudit(db, filter));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#db.destroy();
  }
}

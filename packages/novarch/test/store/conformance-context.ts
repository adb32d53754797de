import { afterEach, beforeEach, it } from 'vitest';
import type {
  ActionRecord,
  NovarchDatabaseStore,
  NovarchStore,
  SessionRecord,
  SessionScope,
} from '../../src/index.js';

/** Opens a store on a fresh, empty database. */
export type OpenStore = () => Promise<NovarchDatabaseStore>;

/** Options of the conformance suite. */
export interface StoreConformanceOptions {
  /** Cases that cannot apply to this store, by title, each with the reason shown in the report. */
  skip?: Readonly<Record<string, string>>;
}

/** What each group of conformance cases gets: the store under test and a case declarer. */
export interface ConformanceContext {
  /** The store opened for the current case (closed after it). */
  store(): NovarchDatabaseStore;
  /** Declares a case, or skips it with its stated reason. */
  check(title: string, body: () => Promise<void>): void;
}

/** Opens a fresh store around every case and declares cases honouring `options.skip`. */
export function createConformanceContext(
  openStore: OpenStore,
  options: StoreConformanceOptions,
): ConformanceContext {
  let current: NovarchDatabaseStore | undefined;
  beforeEach(async () => {
    current = await openStore();
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return {
    store() {
      if (current === undefined) throw new Error('conformance: no store is open outside a case');
      return current;
    },
    check(title, body) {
      const reason = options.skip?.[title];
      if (reason === undefined) it(title, body);
      else it.skip(`${title} — skipped: ${reason}`, body);
    },
  };
}

/** A default scope; override any field. */
export function scope(overrides: Partial<SessionScope> = {}): SessionScope {
  return { tenantId: 'acme', teamId: 'support', agentId: 'refund-bot', ...overrides };
}

/** Records a write action on `session` with a small context. */
export function recordRefund(
  store: NovarchStore,
  session: SessionRecord,
  amount = 120,
): Promise<ActionRecord> {
  return store.recordAction({
    sessionId: session.id,
    actionType: 'refund',
    toolName: 'mcp__billing__refund',
    input: { customerId: 'c-1', amount, reasoning: 'customer asked' },
    context: { recordId: 'c-1', summary: `refund ${amount} EUR`, amount },
    reasoning: 'customer asked',
  });
}

/** A session with one refund action, held until `deadline` (default: in 5 minutes). */
export async function createPendingHold(store: NovarchStore, deadline = inSeconds(300)) {
  const session = await store.createSession(scope(), 300);
  const action = await recordRefund(store, session);
  const hold = await store.createHold(action.id, session.id, deadline);
  return { session, action, hold };
}

/** A deadline `seconds` from now (negative: in the past). */
export function inSeconds(seconds: number): Date {
  return new Date(Date.now() + seconds * 1000);
}

/** Matches an ISO-8601 UTC timestamp as `Date.toISOString()` writes it. */
export const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

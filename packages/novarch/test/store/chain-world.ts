import type { Kysely } from 'kysely';
import type {
  ActionRecord,
  AuditChainReport,
  HoldApprovalPolicy,
  HoldRecord,
  NovarchDatabaseStore,
  SessionRecord,
} from '../../src/index.js';
import type { StoreTables } from '../../src/store/store-tables.js';
import { recordRefund, scope } from './conformance-context.js';

/** A store on a fresh database, and a way to run SQL on that database behind the store's back. */
export interface TamperableStore {
  store: NovarchDatabaseStore;
  /** Runs one SQL statement on the database directly, as a hand edit would. */
  exec(statement: string): Promise<void>;
  /** Lets `exec` change `seq` values of `table` (PostgreSQL identity columns refuse it at first). */
  allowSeqEdits(table: string): Promise<void>;
  /** Opens another store on the same database (a second writer; a reopen runs missing migrations). */
  openAnother(): Promise<NovarchDatabaseStore>;
  /** Runs `work` in one transaction on the database through a kysely of its own (an older Novarch's writes). */
  transaction<T>(work: (db: Kysely<StoreTables>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * What each audit chain case starts from: a tamperable store on a fresh database with one open
 * session of tenant acme (team support, refund-bot), and the few steps the cases repeat.
 */
export interface ChainWorld extends TamperableStore {
  session: SessionRecord;
  /** Records a refund of `amount` on the world's session. */
  refund(amount?: number): Promise<ActionRecord>;
  /** Holds a new refund of `amount` on the world's session for five minutes, under `policy` if given. */
  holdRefund(
    amount: number,
    policy?: HoldApprovalPolicy,
  ): Promise<{ action: ActionRecord; hold: HoldRecord }>;
  /** The problems verifying acme's chain finds, by kind and record. */
  chainProblems(): Promise<ReturnType<typeof problemsOf>>;
}

/** Five minutes from now: the deadline of the world's holds. */
export const inFiveMinutes = (): Date => new Date(Date.now() + 300_000);

/** The problems of `reports`, by kind and record. */
export const problemsOf = (reports: AuditChainReport[]) =>
  reports.flatMap((report) =>
    report.problems.map((problem) => ({ kind: problem.kind, recordId: problem.recordId })),
  );

/** Runs each case in a world of its own on a store from `open`, closed after the case. */
export function chainWorld(
  open: () => Promise<TamperableStore>,
): (work: (world: ChainWorld) => Promise<void>) => Promise<void> {
  return async (work) => {
    const opened = await open();
    try {
      const { store } = opened;
      const session = await store.createSession(scope(), 300);
      const refund = (amount?: number) => recordRefund(store, session, amount);
      await work({
        ...opened,
        session,
        refund,
        async holdRefund(amount, policy) {
          const action = await refund(amount);
          return { action, hold: await store.createHold(action.id, session.id, inFiveMinutes(), policy) };
        },
        chainProblems: async () => problemsOf(await store.verifyAuditChains({ tenantId: 'acme' })),
      });
    } finally {
      await opened.close();
    }
  };
}

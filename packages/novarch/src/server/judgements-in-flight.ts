import { AsyncLocalStorage } from 'node:async_hooks';
import type { NovarchDatabaseStore, NovarchStore } from '../model/novarch-store.js';
import { errorMessage } from '../support.js';
import { ProblemError } from './problem-error.js';
import { problemAsResponse } from './problem-response.js';

/** Stored on a write whose judgement a shutdown cut, and answered to its agent (503). */
export const SHUTDOWN_REFUSAL_RATIONALE =
  'the server shut down before the judgement finished: the write was refused and did not run';

/** Answered to a request the shutdown cut that had stored nothing. */
const SHUTDOWN_CUT_DETAIL = 'the server shut down before this request finished: nothing of it was stored';

/**
 * Which of the store's methods write (refused after the cut) and which of those say what a write
 * being judged has reached (`tracked`). Every method is listed, so a new one needs a decision here.
 */
const STORE_METHODS = {
  createSession: 'write',
  getSession: 'read',
  getSessionBinding: 'read',
  listSessions: 'read',
  killSession: 'write',
  recordEvidence: 'write',
  listEvidence: 'read',
  listEvidenceBefore: 'read',
  queryActionHistory: 'read',
  recordAction: 'tracked',
  proposeAction: 'tracked',
  recordVerdict: 'tracked',
  releaseAction: 'tracked',
  recordRefusal: 'tracked',
  createHold: 'tracked',
  getHold: 'read',
  listHolds: 'read',
  checkInHoldWaiter: 'write',
  decideHold: 'write',
  audit: 'read',
  close: 'read',
  pushRuleSet: 'write',
  getRuleSet: 'read',
  listRuleSets: 'read',
  recordWebhookDelivery: 'write',
  recordWebhookAttempt: 'write',
  listWebhookDeliveries: 'read',
  listPendingWebhookDeliveries: 'read',
  verifyAuditChains: 'read',
  listAuditChains: 'read',
  readAuditChain: 'read',
  claimSlackPost: 'write',
  recordSlackMessages: 'write',
  claimSlackUpdate: 'write',
} as const satisfies Record<keyof NovarchDatabaseStore, 'read' | 'write' | 'tracked'>;

/** The methods `guard` implements itself, to follow each write being judged. */
type TrackedMethod = {
  [K in keyof typeof STORE_METHODS]: (typeof STORE_METHODS)[K] extends 'tracked' ? K : never;
}[keyof typeof STORE_METHODS];

/** A request being handled, and what it stored. */
interface RequestInFlight {
  /** The actions it recorded, and whether each has its final verdict stored (a hold: its hold too). */
  actions: Map<string, { sessionId: string; settled: boolean; began: number }>;
  /** Its store writes under way. */
  writes: Set<Promise<unknown>>;
  /** True once one of its writes was stored. */
  wrote: boolean;
  /** When each `recordAction` of it still unsettled began (ms since the epoch, this clock). */
  judging: Set<number>;
  /** Answers it at the cut, in place of its handler. */
  answer(response: Response): void;
}

/** What `cut` did. */
export interface CutOutcome {
  /** Writes whose judgement was cut, now stored as refused. */
  refused: number;
  /** Requests answered 503 by the cut. */
  answered: number;
  /** Refusals that could not be stored (those actions keep no verdict: they never ran). */
  failures: string[];
}

/**
 * The requests a server is handling and what each stored, so that a shutdown whose drain
 * timeout passes can end the writes still being judged consistently (fail-closed): at the cut,
 * each such write is stored as refused (a `gate` kill verdict, `SHUTDOWN_REFUSAL_RATIONALE`) and
 * its agent is answered 503 with the same reason, and the store refuses every later write of
 * this server, so a judge that answers afterwards can neither pass nor release it. A request
 * whose decision was already stored gets its own answer.
 */
export class JudgementsInFlight {
  readonly #requests = new Set<RequestInFlight>();
  readonly #context = new AsyncLocalStorage<RequestInFlight>();
  #cut = false;

  /**
   * @param fenced Why this server may store nothing right now (a server of several on one
   *   PostgreSQL whose lease lapsed: another may be refusing its writes), else undefined.
   */
  constructor(private readonly fenced: () => string | undefined = () => undefined) {}

  /**
   * When the oldest write still being judged here began (ms since the epoch), or now when none is:
   * every action of this server recorded before it has its decision stored.
   */
  judgingSince(): number {
    let oldest = Date.now();
    for (const request of this.#requests) {
      for (const began of request.judging) oldest = Math.min(oldest, began);
      for (const action of request.actions.values())
        if (!action.settled) oldest = Math.min(oldest, action.began);
    }
    return oldest;
  }

  /** Handles one request: its handler's answer, or the cut's when the cut comes first. */
  serve(handle: () => Response | Promise<Response>): Promise<Response> {
    let answer: (response: Response) => void = () => {};
    const cut = new Promise<Response>((resolve) => {
      answer = resolve;
    });
    const request: RequestInFlight = {
      actions: new Map(),
      writes: new Set(),
      wrote: false,
      judging: new Set(),
      answer,
    };
    this.#requests.add(request);
    const handled = this.#context.run(request, async () => handle());
    const forget = () => this.#requests.delete(request);
    handled.then(forget, forget);
    return Promise.race([handled, cut]);
  }

  /**
   * The store as the routes see it: the same store, told which request records which action and
   * its verdict, and refusing every write once the cut came (503, as a request after the signal).
   */
  guard(store: NovarchDatabaseStore): NovarchDatabaseStore {
    const tracked: Pick<NovarchStore, TrackedMethod> = {
      recordAction: (action) =>
        this.#write(async (request) => {
          // Counted from before the insert: the action's `created_at` is no earlier than this.
          const began = Date.now();
          request?.judging.add(began);
          try {
            const record = await store.recordAction(action);
            request?.actions.set(record.id, { sessionId: record.sessionId, settled: false, began });
            return record;
          } finally {
            request?.judging.delete(began);
          }
        }),
      proposeAction: (action) =>
        this.#write(async (request) => {
          // Counted from before the insert, as for `recordAction`.
          const began = Date.now();
          request?.judging.add(began);
          try {
            const proposal = await store.proposeAction(action);
            // A killed session's write is stored refused at once: settled.
            request?.actions.set(proposal.action.id, {
              sessionId: proposal.action.sessionId,
              settled: !proposal.open,
              began,
            });
            return proposal;
          } finally {
            request?.judging.delete(began);
          }
        }),
      recordVerdict: (verdict) =>
        this.#write(async (request) => {
          const record = await store.recordVerdict(verdict);
          // A hold is settled once its hold is stored too (`createHold`).
          if (verdict.verdict.kind !== 'hold') settle(request, verdict.actionId);
          return record;
        }),
      releaseAction: (release) =>
        this.#write(async (request) => {
          const result = await store.releaseAction(release);
          settle(request, release.actionId);
          return result;
        }),
      createHold: (actionId, sessionId, deadline, policy) =>
        this.#write(async (request) => {
          const hold = await store.createHold(actionId, sessionId, deadline, policy);
          settle(request, actionId);
          return hold;
        }),
      recordRefusal: (refusal) =>
        this.#write(async (request) => {
          const result = await store.recordRefusal(refusal);
          settle(request, result.action.id);
          return result;
        }),
    };
    return new Proxy(store, {
      get: (target, key) => {
        const access: unknown = Reflect.get(STORE_METHODS, key);
        if (access === 'tracked') return Reflect.get(tracked, key);
        const value: unknown = Reflect.get(target, key, target);
        if (typeof value !== 'function') return value;
        if (access !== 'write') return value.bind(target);
        return (...args: unknown[]) => this.#write(async () => value.apply(target, args));
      },
    });
  }

  /**
   * Ends what is still in flight at the drain deadline. From now on the guarded store refuses
   * every write. Writes already under way finish first (what they stored stands). Then each
   * request with a write still unjudged has it stored as refused through `store` (the unguarded
   * one) and is answered 503 with the reason; one that stored nothing is answered 503 too. A
   * request whose decision is stored is left to send its own answer.
   */
  async cut(store: NovarchStore): Promise<CutOutcome> {
    this.#cut = true;
    const requests = [...this.#requests];
    await Promise.allSettled(requests.flatMap((request) => [...request.writes]));
    const outcome: CutOutcome = { refused: 0, answered: 0, failures: [] };
    for (const request of requests) {
      const unsettled = [...request.actions].filter(([, action]) => !action.settled);
      if (unsettled.length === 0) {
        if (request.wrote) continue;
        request.answer(unavailable(SHUTDOWN_CUT_DETAIL));
        outcome.answered++;
        continue;
      }
      let failed: { actionId: string; refusalRecorded: boolean } | undefined;
      for (const [actionId, { sessionId }] of unsettled) {
        try {
          await store.recordRefusal({
            sessionId,
            actionId,
            source: 'gate',
            citations: { ruleIds: [], evidenceIds: [], rationale: SHUTDOWN_REFUSAL_RATIONALE },
          });
          outcome.refused++;
          failed ??= { actionId, refusalRecorded: true };
        } catch (error) {
          outcome.failures.push(`action ${actionId}: ${errorMessage(error)}`);
          failed ??= { actionId, refusalRecorded: false };
        }
      }
      // As a failed decision answers: the action, and whether its refusal is stored (a request
      // proposes one write), so the client records no second refusal as a new action.
      request.answer(unavailable(SHUTDOWN_REFUSAL_RATIONALE, failed));
      outcome.answered++;
    }
    return outcome;
  }

  /** Runs a write of the current request, or refuses it after the cut. */
  #write<T>(work: (request: RequestInFlight | undefined) => Promise<T>): Promise<T> {
    if (this.#cut)
      return Promise.reject(new ProblemError(503, 'Service Unavailable', 'the server is shutting down'));
    const fenced = this.fenced();
    if (fenced !== undefined) return Promise.reject(new ProblemError(503, 'Service Unavailable', fenced));
    const request = this.#context.getStore();
    const written = work(request);
    if (request !== undefined) {
      request.writes.add(written);
      written.then(
        () => {
          request.wrote = true;
          request.writes.delete(written);
        },
        () => request.writes.delete(written),
      );
    }
    return written;
  }
}

function settle(request: RequestInFlight | undefined, actionId: string): void {
  const action = request?.actions.get(actionId);
  if (action !== undefined) action.settled = true;
}

function unavailable(detail: string, failed?: { actionId: string; refusalRecorded: boolean }): Response {
  return problemAsResponse({
    type: 'about:blank',
    title: 'Service Unavailable',
    status: 503,
    detail,
    ...(failed === undefined ? {} : failed),
  });
}

import path from 'node:path';
import { waitUntil } from '@holodeck/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NovarchDatabaseStore } from '../../../src/model/novarch-store.js';
import type { SessionRecord, Verdict } from '../../../src/model/records.js';
import { JudgementsInFlight, SHUTDOWN_REFUSAL_RATIONALE } from '../../../src/server/judgements-in-flight.js';
import { openSqliteStore } from '../../../src/store/open-sqlite-store.js';
import { useTempDir } from '../rules/temp-files.js';

// What a shutdown's cut does to each request in flight: a write still unjudged is stored as
// refused and answered 503; a decision already stored (or being stored) stands and is answered
// by its own handler; nothing is stored after the cut.

const temp = useTempDir();
let store: NovarchDatabaseStore;
let session: SessionRecord;
let count = 0;

beforeEach(async () => {
  store = await openSqliteStore(path.join(temp.dir, `n${count++}.db`));
  session = await store.createSession({ tenantId: 'acme', teamId: 'cs-ops', agentId: 'bot' }, 60);
});
afterEach(() => store.close());

const PROPOSED = {
  actionType: 'issue_refund',
  toolName: 'mcp__cs__issue_refund',
  input: { amount: 5 },
  context: { recordId: 'C1', summary: 'refund C1' },
};
const PASS: Extract<Verdict, { kind: 'pass' }> = {
  kind: 'pass',
  citations: { ruleIds: ['R-1'], evidenceIds: [], rationale: 'ok' },
};

function releasable(): { promise: Promise<void>; release(): void } {
  let release = () => {};
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}

async function verdictsOf(actionId: string) {
  const [entry] = (await store.audit({ sessionId: session.id })).filter(
    (item) => item.action.id === actionId,
  );
  return {
    released: entry?.action.releasedAt !== undefined,
    verdicts: entry?.verdicts.map((verdict) => [
      verdict.verdict.kind,
      verdict.source,
      verdict.verdict.citations.rationale,
    ]),
  };
}

describe('JudgementsInFlight', () => {
  it('a write still being judged at the cut is stored as refused and answered 503; its late pass is refused', async () => {
    const inFlight = new JudgementsInFlight();
    const guarded = inFlight.guard(store);
    const judge = releasable();
    let actionId = '';
    let late: unknown;
    const answer = inFlight.serve(async () => {
      const action = await guarded.recordAction({ sessionId: session.id, ...PROPOSED });
      actionId = action.id;
      await judge.promise;
      late = await guarded
        .releaseAction({ actionId, sessionId: session.id, verdict: PASS })
        .catch((error) => error);
      return Response.json({ released: true });
    });
    while (actionId === '') await new Promise((resolve) => setTimeout(resolve, 5));

    expect(await inFlight.cut(store)).toEqual({ refused: 1, answered: 1, failures: [] });
    const response = await answer;
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      type: 'about:blank',
      title: 'Service Unavailable',
      status: 503,
      detail: SHUTDOWN_REFUSAL_RATIONALE,
      // The client records no second refusal: the action is named and its refusal is stored.
      actionId,
      refusalRecorded: true,
    });
    judge.release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(late).toMatchObject({ name: 'ProblemError', status: 503, message: 'the server is shutting down' });
    expect(await verdictsOf(actionId)).toEqual({
      released: false,
      verdicts: [['kill', 'gate', SHUTDOWN_REFUSAL_RATIONALE]],
    });
  });

  it('a decision stored before the cut stands, and its own answer goes out', async () => {
    const inFlight = new JudgementsInFlight();
    const guarded = inFlight.guard(store);
    const respond = releasable();
    let actionId = '';
    const answer = inFlight.serve(async () => {
      const action = await guarded.recordAction({ sessionId: session.id, ...PROPOSED });
      await guarded.releaseAction({ actionId: action.id, sessionId: session.id, verdict: PASS });
      actionId = action.id;
      await respond.promise;
      return Response.json({ released: true });
    });
    while (actionId === '') await new Promise((resolve) => setTimeout(resolve, 5));

    expect(await inFlight.cut(store)).toEqual({ refused: 0, answered: 0, failures: [] });
    respond.release();
    expect((await answer).status).toBe(200);
    expect(await verdictsOf(actionId)).toEqual({ released: true, verdicts: [['pass', 'judge', 'ok']] });
  });

  it('a release under way at the cut finishes first: it stands, and no refusal is stored', async () => {
    const inFlight = new JudgementsInFlight();
    const committing = releasable();
    let releasing = false;
    // A store whose release takes a while (e.g. PostgreSQL waiting for the session's row lock).
    const slow = new Proxy(store, {
      get(target, key) {
        if (key === 'releaseAction')
          return async (...args: Parameters<NovarchDatabaseStore['releaseAction']>) => {
            releasing = true;
            await committing.promise;
            return target.releaseAction(...args);
          };
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const guarded = inFlight.guard(slow);
    let actionId = '';
    const answer = inFlight.serve(async () => {
      const action = await guarded.recordAction({ sessionId: session.id, ...PROPOSED });
      actionId = action.id;
      const release = await guarded.releaseAction({ actionId, sessionId: session.id, verdict: PASS });
      return Response.json(release);
    });
    await waitUntil(() => releasing, {
      timeoutMs: 10_000,
      what: 'the release to reach the store',
      intervalMs: 5,
    });

    const cut = inFlight.cut(store);
    setTimeout(() => committing.release(), 50);
    expect(await cut).toEqual({ refused: 0, answered: 0, failures: [] });
    const response = await answer;
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ released: true });
    expect(await verdictsOf(actionId)).toEqual({ released: true, verdicts: [['pass', 'judge', 'ok']] });
  });

  it('a request that stored nothing is answered 503; after the cut nothing more is stored', async () => {
    const inFlight = new JudgementsInFlight();
    const guarded = inFlight.guard(store);
    const reading = releasable();
    const answer = inFlight.serve(async () => {
      await reading.promise;
      return Response.json({ sessions: [] });
    });

    expect(await inFlight.cut(store)).toEqual({ refused: 0, answered: 1, failures: [] });
    const response = await answer;
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      detail: 'the server shut down before this request finished: nothing of it was stored',
    });
    reading.release();
    await expect(
      guarded.createSession({ tenantId: 'acme', teamId: 'cs-ops', agentId: 'bot' }, 60),
    ).rejects.toMatchObject({ status: 503 });
    await expect(guarded.recordAction({ sessionId: session.id, ...PROPOSED })).rejects.toMatchObject({
      status: 503,
    });
    // Reads still answer (a late handler may read before it tries to write).
    expect((await guarded.getSession(session.id))?.id).toBe(session.id);
    expect(await store.audit({ sessionId: session.id })).toEqual([]);
  });
});

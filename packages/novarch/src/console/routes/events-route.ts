import type { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { ConsoleContext, ConsoleEnv } from '../console-context.js';
import { outcomeText, renderHoldCard } from '../views/render-hold-card.js';

/** How often an idle stream sends a comment, so proxies keep it open. */
const PING_MS = 15_000;
/** The most hold ids a page may say it shows (the query string stays bounded). */
const MAX_SHOWN = 500;

/**
 * `GET /console/events?shown=ID,ID`: the live triage queue as server-sent events, for the holds
 * of this operator's grants only.
 * - `hold-added` `{ id, html }`: a new hold an agent waits on, its card rendered (and escaped) here.
 * - `hold-decided` `{ id, status, decidedBy, decidedAt, rationale, text }`: a hold the page shows was
 *   decided, by anyone (another operator, the deadline): the page stops offering it.
 * - `hold-gone` `{ id, text }`: still pending, but no agent waits on it any more.
 * - `signed-out`: the console session ended (expired, signed out, token revoked).
 * The stream looks every `eventsPollMs` (and at once when `subscribeChanges` fires), so it sees
 * holds made and decided by any process sharing the store.
 */
export function registerEventsRoute(app: Hono<ConsoleEnv>, context: ConsoleContext): void {
  app.get('/events', (c) => {
    const session = c.get('session');
    const known = new Set(
      (c.req.query('shown') ?? '')
        .split(',')
        .filter((id) => id !== '')
        .slice(0, MAX_SHOWN),
    );
    return streamSSE(c, async (stream) => {
      let closed = false;
      let wake: (() => void) | undefined;
      stream.onAbort(() => {
        closed = true;
        wake?.();
      });
      const unsubscribe = context.deps.subscribeChanges?.(() => wake?.());
      let lastWrite = Date.now();
      try {
        while (!closed && !context.shutdown.aborted) {
          if (!(await stillSignedIn(context, session))) {
            await stream.writeSSE({ event: 'signed-out', data: '{}' });
            break;
          }
          const { operator, csrfToken } = session;
          const { holds } = await context.deps.listTriage(operator);
          const current = new Set(holds.map((item) => item.hold.id));
          for (const item of holds) {
            if (known.has(item.hold.id)) continue;
            known.add(item.hold.id);
            const html = String(await renderHoldCard(item, csrfToken));
            await stream.writeSSE({ event: 'hold-added', data: JSON.stringify({ id: item.hold.id, html }) });
            lastWrite = Date.now();
          }
          for (const id of [...known]) {
            if (current.has(id)) continue;
            known.delete(id);
            const item = await context.deps.getHold(operator, id);
            if (item === undefined) continue;
            const { hold } = item;
            const data =
              hold.status === 'pending'
                ? {
                    event: 'hold-gone',
                    data: { id, text: 'No agent waits on this hold any more: a decision would run nothing.' },
                  }
                : {
                    event: 'hold-decided',
                    data: {
                      id,
                      status: hold.status,
                      decidedBy: hold.decidedBy,
                      decidedAt: hold.decidedAt,
                      rationale: hold.rationale,
                      text: outcomeText(item),
                    },
                  };
            await stream.writeSSE({ event: data.event, data: JSON.stringify(data.data) });
            lastWrite = Date.now();
          }
          if (Date.now() - lastWrite >= PING_MS) {
            await stream.write(': ping\n\n');
            lastWrite = Date.now();
          }
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, context.eventsPollMs);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          wake = undefined;
        }
      } finally {
        unsubscribe?.();
      }
    });
  });
}

/** Whether the stream's session may go on: not expired, and its operator not revoked. */
async function stillSignedIn(
  context: ConsoleContext,
  session: ConsoleEnv['Variables']['session'],
): Promise<boolean> {
  if (!(await context.sessions.isActive(session))) return false;
  if (context.deps.findOperator === undefined) return true;
  const operator = await context.deps.findOperator(session.operator.id);
  if (operator === undefined) {
    await context.sessions.delete(session.id);
    return false;
  }
  session.operator = operator;
  return true;
}

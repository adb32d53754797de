import type { Hono } from 'hono';
import { z } from 'zod';
import { type ConsoleContext, type ConsoleEnv, wantsJson } from '../console-context.js';
import { ConsoleRequestError } from '../console-errors.js';
import { renderSessions, renderSessionTimeline } from '../views/render-sessions.js';
import { renderPage } from './render-page.js';

const killSchema = z
  .object({ reason: z.string().max(2000, 'reason: at most 2000 characters').optional() })
  .loose();

/** `GET /console/sessions?q=TEXT&page=N`. */
const sessionListSchema = z
  .object({
    q: z
      .string()
      .trim()
      .max(200, 'q: at most 200 characters')
      .optional()
      .transform((value) => (value === '' ? undefined : value)),
    page: z
      .string()
      .trim()
      .optional()
      .refine(
        (value) => value === undefined || value === '' || (/^\d+$/.test(value) && Number(value) >= 1),
        'page: expected a whole number from 1',
      )
      .transform((value) => (value === undefined || value === '' ? undefined : Number(value))),
  })
  .strict();

/** The sentence of a 404 for a session: the same for unknown ids and ids of another tenant. */
export const noSessionMessage = (id: string) => `No session ${id}.`;

/** `GET /console/sessions`, `GET /console/sessions/:id`, `POST /console/sessions/:id/kill`. */
export function registerSessionRoutes(app: Hono<ConsoleEnv>, context: ConsoleContext): void {
  app.get('/sessions', async (c) => {
    const parsed = sessionListSchema.safeParse(c.req.query());
    if (!parsed.success)
      throw new ConsoleRequestError(400, parsed.error.issues.map((issue) => issue.message).join('; '));
    const { page, q } = parsed.data;
    const listed = await context.deps.listSessions(c.get('session').operator, {
      ...(page === undefined ? {} : { page }),
      ...(q === undefined ? {} : { search: q }),
    });
    return renderPage(c, 'sessions', 'Sessions', renderSessions(listed, q ?? ''));
  });

  app.get('/sessions/:id', async (c) => {
    const session = c.get('session');
    const timeline = await context.deps.getSessionTimeline(session.operator, c.req.param('id'));
    if (timeline === undefined) throw new ConsoleRequestError(404, noSessionMessage(c.req.param('id')));
    const notice =
      c.req.query('killed') === undefined ? undefined : 'Session killed: the gate refuses its next call.';
    return renderPage(
      c,
      'session',
      `Session ${timeline.session.id}`,
      renderSessionTimeline({
        timeline,
        csrfToken: session.csrfToken,
        ...(notice === undefined ? {} : { notice }),
      }),
    );
  });

  app.post('/sessions/:id/kill', async (c) => {
    const session = c.get('session');
    const id = c.req.param('id');
    const parsed = killSchema.safeParse(await c.req.parseBody());
    if (!parsed.success)
      throw new ConsoleRequestError(400, parsed.error.issues.map((issue) => issue.message).join('; '));
    const reason = parsed.data.reason?.trim() ?? '';
    const timeline = await context.deps.getSessionTimeline(session.operator, id);
    if (timeline === undefined) throw new ConsoleRequestError(404, noSessionMessage(id));
    const refuse = (status: 400 | 409, error: string) =>
      wantsJson(c)
        ? c.json({ outcome: 'refused', message: error }, status)
        : renderPage(
            c,
            'session',
            `Session ${id}`,
            renderSessionTimeline({ timeline, csrfToken: session.csrfToken, error }),
            status,
          );
    if (reason === '') return refuse(400, 'A kill needs a reason: it is stored and shown to the agent.');
    const outcome = await context.deps.killSession(session.operator, { sessionId: id, reason });
    if (outcome === undefined) throw new ConsoleRequestError(404, noSessionMessage(id));
    if (outcome.outcome === 'refused') return refuse(409, outcome.message);
    if (wantsJson(c)) return c.json({ outcome: 'killed', killReason: outcome.session.killReason });
    return c.redirect(`/console/sessions/${encodeURIComponent(id)}?killed=1`, 303);
  });
}

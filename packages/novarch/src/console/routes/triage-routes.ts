import type { Hono } from 'hono';
import { z } from 'zod';
import { isRecord } from '../../support.js';
import { arrangeTriage, TRIAGE_GROUPS, TRIAGE_SORTS } from '../arrange-triage.js';
import { type ConsoleContext, type ConsoleEnv, wantsJson } from '../console-context.js';
import type { ConsoleDecision } from '../console-deps.js';
import { ConsoleRequestError } from '../console-errors.js';
import { html } from '../views/markup.js';
import { outcomeText, renderHoldCard } from '../views/render-hold-card.js';
import { renderMessage } from '../views/render-layout.js';
import { renderTriage } from '../views/render-triage.js';
import { renderPage } from './render-page.js';

/** The decision form (or the client script's post of it). */
const decisionSchema = z
  .object({
    decision: z.enum(['approve', 'deny', 'skip'], { error: 'decision: expected approve, deny or skip' }),
    rationale: z.string().max(2000, 'rationale: at most 2000 characters').optional(),
    input: z.string().max(20_000, 'input: at most 20000 characters').optional(),
  })
  .loose();

/** `GET /console?q=TEXT&sort=S&group=G&view=one`: how the triage list is arranged. */
const triageQuerySchema = z
  .object({
    q: z
      .string()
      .trim()
      .max(200, 'q: at most 200 characters')
      .optional()
      .transform((value) => (value === '' ? undefined : value)),
    sort: z
      .enum(TRIAGE_SORTS, { error: `sort: expected one of ${TRIAGE_SORTS.join(', ')}` })
      .default('deadline'),
    group: z
      .enum(TRIAGE_GROUPS, { error: `group: expected one of ${TRIAGE_GROUPS.join(', ')}` })
      .default('none'),
    view: z.enum(['one'], { error: 'view: expected one (one hold at a time) or nothing' }).optional(),
  })
  .strict();

const STATUS = { approve: 'approved', deny: 'denied', skip: 'skipped' } as const;

/** The edited input of the form (approve only), or a 400 that says what is wrong with it. */
function editedInput(text: string | undefined, decision: string): Record<string, unknown> | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  if (decision !== 'approve')
    throw new ConsoleRequestError(400, 'Only an approval takes an edited input: clear it to deny or stop.');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConsoleRequestError(
      400,
      `The edited input is not JSON (${error instanceof Error ? error.message : String(error)}): write the whole tool input as a JSON object, e.g. {"order_id": "A-1", "amount": 400}. Nothing was changed.`,
    );
  }
  if (!isRecord(value))
    throw new ConsoleRequestError(
      400,
      'The edited input must be a JSON object (the whole tool input), e.g. {"order_id": "A-1", "amount": 400}. Nothing was changed.',
    );
  return value;
}

/** The triage list's arrangement from the query, or a 400 naming what is wrong with it. */
function parseTriageQuery(query: Record<string, string>): z.output<typeof triageQuerySchema> {
  const parsed = triageQuerySchema.safeParse(query);
  if (!parsed.success)
    throw new ConsoleRequestError(
      400,
      parsed.error.issues
        .map((issue) =>
          issue.code === 'unrecognized_keys'
            ? `unknown query ${issue.keys.map((key) => `"${key}"`).join(', ')}: use q, sort, group or view`
            : issue.message,
        )
        .join('; '),
    );
  return parsed.data;
}

/** The decision posted on hold `holdId`, or a 400 naming what is wrong with it. */
function parseDecision(body: unknown, holdId: string): ConsoleDecision {
  const parsed = decisionSchema.safeParse(body);
  if (!parsed.success)
    throw new ConsoleRequestError(400, parsed.error.issues.map((issue) => issue.message).join('; '));
  const input = editedInput(parsed.data.input, parsed.data.decision);
  return {
    holdId,
    status: STATUS[parsed.data.decision],
    ...(parsed.data.rationale === undefined ? {} : { rationale: parsed.data.rationale }),
    ...(input === undefined ? {} : { input }),
  };
}

/** The sentence of a 404 for a hold: the same for unknown ids and ids of another tenant. */
export const noHoldMessage = (id: string) => `No hold ${id}.`;

/** `GET /console` (the queue), `GET /console/holds/:id`, `POST /console/holds/:id/decision`. */
export function registerTriageRoutes(app: Hono<ConsoleEnv>, context: ConsoleContext): void {
  app.get('/', async (c) => {
    const { q, sort, group, view } = parseTriageQuery(c.req.query());
    const arrangement = { ...(q === undefined ? {} : { filter: q }), sort, group };
    const { holds, unattended } = await context.deps.listTriage(c.get('session').operator);
    return renderPage(
      c,
      'triage',
      'Triage',
      renderTriage({
        groups: arrangeTriage(holds, arrangement),
        arrangement: { ...arrangement, oneAtATime: view === 'one' },
        waiting: holds.length,
        unattended,
        csrfToken: c.get('session').csrfToken,
      }),
    );
  });

  app.get('/holds/:id', async (c) => {
    const item = await context.deps.getHold(c.get('session').operator, c.req.param('id'));
    if (item === undefined) throw new ConsoleRequestError(404, noHoldMessage(c.req.param('id')));
    return renderPage(c, 'hold', `Hold ${item.hold.id}`, renderHoldCard(item, c.get('session').csrfToken));
  });

  app.post('/holds/:id/decision', async (c) => {
    const session = c.get('session');
    const decision = parseDecision(await c.req.parseBody(), c.req.param('id'));
    const result = await context.deps.decideHold(session.operator, decision);
    if (result === undefined) throw new ConsoleRequestError(404, noHoldMessage(decision.holdId));
    const { hold } = result;
    const status = result.outcome === 'decided' ? 200 : 409;
    if (wantsJson(c)) {
      return c.json(
        {
          outcome: result.outcome,
          ...(result.outcome === 'refused' ? { message: result.message } : {}),
          hold: {
            id: hold.id,
            status: hold.status,
            decidedBy: hold.decidedBy,
            decidedAt: hold.decidedAt,
            rationale: hold.rationale,
          },
          text: outcomeText(result),
        },
        status,
      );
    }
    if (result.outcome === 'decided') return c.redirect(`/console/holds/${encodeURIComponent(hold.id)}`, 303);
    const item = await context.deps.getHold(session.operator, hold.id);
    return renderPage(
      c,
      'hold',
      `Hold ${hold.id}`,
      html`${renderMessage('error', result.message)}${item === undefined ? '' : renderHoldCard(item, session.csrfToken)}`,
      409,
    );
  });
}

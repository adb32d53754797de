import { randomBytes, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import type { LoadedAgent } from '../config/index.js';
import { HoloDeckError } from '../errors.js';
import { appendLabel } from '../runner/calibration/append-label.js';
import { calibratedMetrics } from '../runner/calibration/run-calibration.js';
import { type KnownRuns, notFoundMessage } from './known-runs.js';
import type { ViewLabelling } from './view-labelling.js';

/** What the viewer needs to write labels: the agent whose labels files they go to. */
export interface ViewLabelWriter {
  agent: LoadedAgent;
  /** Values never written into a labels file (the credentials of the environment). */
  secrets: readonly string[];
  /** The CSRF token the page must send back; default a fresh random one. */
  token?: string;
}

/** The header the page sends its CSRF token in. */
export const CSRF_HEADER = 'x-holodeck-csrf';

const READ_ONLY =
  'Refused: this viewer is read-only. Start it with holodeck test view --writable to write calibration labels.';
const NO_TOKEN = "Refused: the request lacks this viewer's CSRF token (reload the page to get a fresh one).";

const LabelBodySchema = z.strictObject({
  metric: z.string().min(1),
  label: z.enum(['pass', 'fail']),
  comment: z.string().max(4000).optional(),
});

function sameToken(sent: string | undefined, token: string): boolean {
  if (sent === undefined) return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Refuses a write that does not come from this viewer's own page: a browser sends Origin on
 * every POST, and a page elsewhere (or a DNS-rebound one, already stopped by the host guard) has
 * another; no Origin at all is refused too (fail closed).
 */
function originRefusal(c: Context): string | undefined {
  const expected = `http://${c.req.header('host') ?? ''}`;
  const origin = c.req.header('origin');
  if (origin === expected) return undefined;
  return `Refused: a label may only be written from this viewer's own page (Origin ${origin === undefined ? 'missing' : `"${origin}"`} is not ${expected}).`;
}

/**
 * `GET /api/labelling` (whether labels may be written, the token and the calibrated judge metrics)
 * and `POST /api/runs/:id/cases/:name/labels` (append one label through appendLabel, the writer
 * `holodeck test add --label` uses). Without a writer every POST is refused: read-only by default.
 */
export function addLabelRoutes(app: Hono, runs: KnownRuns, writer: ViewLabelWriter | undefined): void {
  const token = writer ? (writer.token ?? randomBytes(32).toString('base64url')) : '';
  const metrics = writer
    ? calibratedMetrics(writer.agent).map(({ config }) => config.name ?? config.type)
    : [];

  app.get('/api/labelling', (c) => {
    // Readable by this origin only (no CORS headers), so another page cannot learn the token.
    const body: ViewLabelling = writer ? { writable: true, token, metrics } : { writable: false };
    return c.json(body);
  });

  app.post('/api/runs/:id/cases/:name/labels', async (c) => {
    if (!writer) return c.json({ error: READ_ONLY }, 403);
    const refusal = originRefusal(c);
    if (refusal) return c.json({ error: refusal }, 403);
    if (!sameToken(c.req.header(CSRF_HEADER), token)) return c.json({ error: NO_TOKEN }, 403);
    const parsed = LabelBodySchema.safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success)
      return c.json(
        {
          error: `The label must be JSON { metric, label: "pass" | "fail", comment? }: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; ')}.`,
        },
        400,
      );
    const runId = c.req.param('id');
    const caseName = c.req.param('name');
    const report = (await runs.has(runId)) ? await runs.catalog.report(runId) : undefined;
    if (!report) return c.json({ error: notFoundMessage(runId) }, 404);
    const source = report.cases.find((entry) => entry.name === caseName);
    if (!source) return c.json({ error: `Run ${runId} has no case named "${caseName}".` }, 404);
    if (!metrics.includes(parsed.data.metric))
      return c.json(
        {
          error: `Judge metric "${parsed.data.metric}" has no calibration file in agent.yaml${metrics.length ? `; the calibrated ones are ${metrics.map((name) => `"${name}"`).join(', ')}` : ''}.`,
        },
        400,
      );
    try {
      const written = await appendLabel(writer.agent, {
        run: report,
        source,
        metric: parsed.data.metric,
        label: parsed.data.label,
        comment: parsed.data.comment?.trim() || undefined,
        secrets: writer.secrets,
      });
      return c.json({
        metric: written.metric,
        label: parsed.data.label,
        file: path.relative(writer.agent.directory, written.file) || written.file,
      });
    } catch (error) {
      // A user-caused problem (a case that did not answer, a labels file that is not one): say it.
      if (error instanceof HoloDeckError) return c.json({ error: error.message }, 400);
      throw error;
    }
  });
}

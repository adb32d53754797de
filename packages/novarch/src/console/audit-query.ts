import { z } from 'zod';
import type { AuditSearch } from './console-deps.js';
import { AUDIT_SEARCH_MAX } from './search-store-audit.js';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Empty form fields mean "any". */
const optionalText = (label: string) =>
  z
    .string()
    .trim()
    .max(200, `${label}: at most 200 characters`)
    .optional()
    .transform((value) => (value === '' ? undefined : value));

const optionalDay = (label: string) =>
  optionalText(label).refine(
    (value) => value === undefined || (DAY.test(value) && !Number.isNaN(Date.parse(value))),
    `${label}: expected a date like 2026-05-01`,
  );

/** The audit search form (query string), as typed by an operator. */
export const auditQuerySchema = z
  .object({
    tenant: optionalText('tenant'),
    team: optionalText('team'),
    agent: optionalText('agent'),
    session: optionalText('session'),
    verdict: z
      .enum(['', 'pass', 'kill', 'hold'], { error: 'verdict: expected pass, kill or hold' })
      .optional()
      .transform((value) => (value === '' ? undefined : value)),
    rule: optionalText('rule'),
    from: optionalDay('from'),
    to: optionalDay('to'),
    limit: z
      .string()
      .trim()
      .optional()
      .transform((value) => (value === '' ? undefined : value))
      .refine(
        (value) =>
          value === undefined ||
          (/^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= AUDIT_SEARCH_MAX),
        `limit: expected a whole number from 1 to ${AUDIT_SEARCH_MAX}`,
      ),
    page: z
      .string()
      .trim()
      .optional()
      .transform((value) => (value === '' ? undefined : value))
      .refine(
        (value) => value === undefined || (/^\d+$/.test(value) && Number(value) >= 1),
        'page: expected a whole number from 1',
      ),
  })
  .strict();

export type AuditQuery = z.output<typeof auditQuerySchema>;

/** The parsed form, or the sentences that say what is wrong with it. */
export function parseAuditQuery(
  query: Record<string, string>,
): { ok: true; query: AuditQuery; search: AuditSearch } | { ok: false; errors: string[] } {
  const parsed = auditQuerySchema.safeParse(query);
  if (!parsed.success) {
    return {
      ok: false,
      errors: parsed.error.issues.map((issue) =>
        issue.code === 'unrecognized_keys' ? `unknown search field: ${issue.keys.join(', ')}` : issue.message,
      ),
    };
  }
  const q = parsed.data;
  const search: AuditSearch = {
    ...(q.tenant === undefined ? {} : { tenantId: q.tenant }),
    ...(q.team === undefined ? {} : { teamId: q.team }),
    ...(q.agent === undefined ? {} : { agentId: q.agent }),
    ...(q.session === undefined ? {} : { sessionId: q.session }),
    ...(q.verdict === undefined ? {} : { verdict: q.verdict }),
    ...(q.rule === undefined ? {} : { ruleId: q.rule }),
    // Dates are UTC days, both ends included.
    ...(q.from === undefined ? {} : { from: `${q.from}T00:00:00.000Z` }),
    ...(q.to === undefined ? {} : { to: `${q.to}T23:59:59.999Z` }),
    ...(q.limit === undefined ? {} : { limit: Number(q.limit) }),
  };
  return { ok: true, query: q, search };
}

/** The query string of a search, for the export and page links (empty fields left out). */
export function auditQueryString(query: Partial<AuditQuery>, page?: number): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && key !== 'page') params.set(key, String(value));
  if (page !== undefined) params.set('page', String(page));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

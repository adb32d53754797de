import { z } from 'zod';
import { RulesError } from '../../errors.js';
import { formatRuleSetDiff } from '../../format/rules-format.js';
import { plainText } from '../../format/styled-text.js';
import { mayAccess, type OperatorPrincipal } from '../../identity/principal.js';
import type { RuleSetStore } from '../../model/novarch-store.js';
import type { StoredRuleSet, StoredRuleSetSummary } from '../../model/stored-rule-set.js';
import { pushRules } from '../../rules/stored-rules.js';
import {
  RuleSetDiffSchema,
  RuleSetPushAnswerSchema,
  RuleSetSummarySchema,
  RuleSetVersionSchema,
} from '../../wire/rules-schemas.js';
import { ProblemError } from '../problem-error.js';
import { defineRoute, type RouteRequest } from '../route-spec.js';
import { parseTenantTeamKey, tenantRuleSets } from '../server-rules.js';
import { operatorOf } from './route-helpers.js';

/** The name a pushed body has in the problems of an invalid rules file (`body:3:7  rules[0].id: …`). */
export const RULES_BODY_NAME = 'body';

const NAME = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'expected a name of letters, digits, . _ - (at most 64)');
const VERSION = z
  .string({ error: 'missing: give the two versions to compare, e.g. ?from=2&to=3' })
  .regex(/^(latest|v?[1-9][0-9]*)$/, 'expected a version number such as 3 or v3, or latest')
  .transform((value) => (value === 'latest' ? undefined : Number(value.replace(/^v/, ''))));

const TeamParams = z.object({ tenantId: NAME, teamId: NAME });
const VersionParams = TeamParams.extend({ version: VERSION });
const DiffQuery = z.object({ from: VERSION, to: VERSION });
const ListQuery = z.object({ tenantId: NAME.optional(), teamId: NAME.optional() });

/** The team's rules in the store, or 404 when the admin's grants do not reach it (as if unknown). */
function teamRules(
  request: RouteRequest<unknown, unknown, unknown>,
  tenantId: string,
  teamId: string,
): { admin: OperatorPrincipal; rules: RuleSetStore } {
  const admin = operatorOf(request);
  const tenants = request.services.tenants;
  if (!mayAccess(admin, { tenantId, teamId }) || (tenants !== undefined && !(tenantId in tenants)))
    throw new ProblemError(
      404,
      'Not Found',
      `no team "${teamId}" of tenant "${tenantId}" is visible to this credential`,
    );
  return { admin, rules: tenantRuleSets(request.services.store, tenantId) };
}

function summary(tenantId: string, set: StoredRuleSetSummary): z.output<typeof RuleSetSummarySchema> {
  return {
    tenantId,
    team: set.team,
    version: set.version,
    contentHash: set.contentHash,
    pushedAt: set.pushedAt,
    pushedBy: set.pushedBy,
  };
}

function version(tenantId: string, set: StoredRuleSet): z.output<typeof RuleSetVersionSchema> {
  return { ...summary(tenantId, set), content: set.content };
}

/** A version of the team's rules, or 404 saying which versions there are. */
async function versionOf(
  rules: RuleSetStore,
  tenantId: string,
  teamId: string,
  wanted: number | undefined,
): Promise<StoredRuleSet> {
  const found = await rules.getRuleSet(teamId, wanted);
  if (found !== undefined) return found;
  const versions = await rules.listRuleSets({ team: teamId });
  throw new ProblemError(
    404,
    'Not Found',
    versions.length === 0
      ? `team "${teamId}" of tenant "${tenantId}" has no rules pushed to this server: push a rules file first (novarch rules push FILE --server URL --tenant ${tenantId})`
      : `team "${teamId}" of tenant "${tenantId}" has no version ${wanted}: its versions are ${versions.map((set) => `v${set.version}`).join(', ')}`,
  );
}

export const RULES_ROUTES = [
  defineRoute({
    method: 'get',
    path: '/v1/rules',
    operationId: 'listRuleSets',
    summary:
      "The versions of the teams' rules pushed to this server, within the admin's grants, by tenant, team, version",
    access: 'admin',
    query: ListQuery,
    response: { json: z.array(RuleSetSummarySchema) },
    async handle(request) {
      const admin = operatorOf(request);
      const { tenantId, teamId } = request.query;
      const tenants = request.services.tenants;
      const all = await request.services.store.listRuleSets();
      return all
        .flatMap((set) => {
          const key = parseTenantTeamKey(set.team);
          if (key === undefined) return [];
          if (tenantId !== undefined && key.tenantId !== tenantId) return [];
          if (teamId !== undefined && key.teamId !== teamId) return [];
          if (!mayAccess(admin, key) || (tenants !== undefined && !(key.tenantId in tenants))) return [];
          return [summary(key.tenantId, { ...set, team: key.teamId })];
        })
        .sort((a, b) =>
          a.tenantId !== b.tenantId
            ? a.tenantId < b.tenantId
              ? -1
              : 1
            : a.team !== b.team
              ? a.team < b.team
                ? -1
                : 1
              : a.version - b.version,
        );
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/rules/{tenantId}/{teamId}',
    operationId: 'pushRuleSet',
    summary:
      "Push a rules file (its YAML text as the body) as the next version of a tenant's team rules; the same content as the latest version stores nothing (created: false)",
    access: 'admin',
    params: TeamParams,
    textBody: {
      contentType: 'application/yaml',
      description:
        "the rules file's text, validated as `novarch rules push` validates a file: its team: must be the path's team; problems come back as 400 with each one's line and column in issues",
    },
    response: { json: RuleSetPushAnswerSchema },
    async handle(request) {
      const { tenantId, teamId } = request.params;
      const { admin, rules } = teamRules(request, tenantId, teamId);
      const source = request.text ?? '';
      if (source.includes('\u0000'))
        throw new ProblemError(400, 'Bad Request', 'body: contains a NUL character (\\u0000): remove it');
      if (source.trim() === '')
        throw new ProblemError(
          400,
          'Bad Request',
          "body: empty: send the rules file's YAML text (Content-Type: application/yaml)",
        );
      try {
        const result = await pushRules(rules, {
          source,
          name: RULES_BODY_NAME,
          team: teamId,
          pushedBy: admin.name,
        });
        return { created: result.created, ruleSet: summary(tenantId, result.ruleSet) };
      } catch (error) {
        if (!(error instanceof RulesError)) throw error;
        throw new ProblemError(
          400,
          'Bad Request',
          error.message,
          error.issues.map((issue) => ({
            path: issue.path === '' ? 'body' : `body.${issue.path}`,
            message: issue.message,
            ...(issue.line === undefined ? {} : { line: issue.line }),
            ...(issue.column === undefined ? {} : { column: issue.column }),
            ...(issue.hint === undefined ? {} : { hint: issue.hint }),
          })),
        );
      }
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/rules/{tenantId}/{teamId}/versions/{version}',
    operationId: 'showRuleSet',
    summary: "One version of a tenant's team rules (a number, or latest), with its text",
    access: 'admin',
    params: VersionParams,
    response: { json: RuleSetVersionSchema },
    async handle(request) {
      const { tenantId, teamId } = request.params;
      const { rules } = teamRules(request, tenantId, teamId);
      return version(tenantId, await versionOf(rules, tenantId, teamId, request.params.version));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/rules/{tenantId}/{teamId}/diff',
    operationId: 'diffRuleSets',
    summary: "Two versions of a tenant's team rules and a unified line diff of them (?from=2&to=3)",
    access: 'admin',
    params: TeamParams,
    query: DiffQuery,
    response: { json: RuleSetDiffSchema },
    async handle(request) {
      const { tenantId, teamId } = request.params;
      const { rules } = teamRules(request, tenantId, teamId);
      const from = await versionOf(rules, tenantId, teamId, request.query.from);
      const to = await versionOf(rules, tenantId, teamId, request.query.to);
      return {
        from: version(tenantId, from),
        to: version(tenantId, to),
        diff: plainText(formatRuleSetDiff(from, to)),
      };
    },
  }),
];

import { z } from 'zod';
import { mayAccess } from '../../identity/principal.js';
import { calibrateRules } from '../../rules/calibrate/calibrate-rules.js';
import { ruleSetFromStored } from '../../rules/stored-rules.js';
import { RulesCalibrationReportSchema } from '../../wire/rules-calibration-schemas.js';
import { ProblemError } from '../problem-error.js';
import { defineRoute } from '../route-spec.js';
import { tenantRuleSets } from '../server-rules.js';
import { operatorOf, scopedOf } from './route-helpers.js';

const NAME = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'expected a name of letters, digits, . _ - (at most 64)');
const SINCE = z.iso.datetime({
  offset: true,
  error: 'expected a time with its zone, e.g. 2026-05-01T00:00:00Z',
});

export const RULES_CALIBRATION_ROUTES = [
  defineRoute({
    method: 'get',
    path: '/v1/rules/{tenantId}/{teamId}/calibration',
    operationId: 'calibrateRuleSet',
    summary:
      "A tenant's team rules (their latest version pushed to this server) measured against the operators' decided holds of that tenant's team: per rule kappa, confusion matrix, needless holds",
    access: 'admin',
    params: z.object({ tenantId: NAME, teamId: NAME }),
    query: z.object({ since: SINCE.optional() }),
    response: { json: RulesCalibrationReportSchema },
    async handle(request) {
      const { tenantId, teamId } = request.params;
      const admin = operatorOf(request);
      const tenants = request.services.tenants;
      if (!mayAccess(admin, { tenantId, teamId }) || (tenants !== undefined && !(tenantId in tenants)))
        throw new ProblemError(
          404,
          'Not Found',
          `no team "${teamId}" of tenant "${tenantId}" is visible to this credential`,
        );
      const stored = await tenantRuleSets(request.services.store, tenantId).getRuleSet(teamId, undefined);
      if (stored === undefined)
        throw new ProblemError(
          404,
          'Not Found',
          `team "${teamId}" of tenant "${tenantId}" has no rules pushed to this server: push a rules file first (novarch rules push FILE --server URL --tenant ${tenantId})`,
        );
      const since =
        request.query.since === undefined ? undefined : new Date(request.query.since).toISOString();
      return calibrateRules({
        // The admin's view of the store: only the sessions its grants reach, of this one tenant.
        store: scopedOf(request),
        ruleSet: ruleSetFromStored(stored),
        tenantId,
        ...(since === undefined ? {} : { since }),
        ...(request.services.llmJudge === undefined ? {} : { llmJudge: request.services.llmJudge }),
        ...(request.services.judgeTimeoutMs === undefined
          ? {}
          : { judgeTimeoutMs: request.services.judgeTimeoutMs }),
      });
    },
  }),
];

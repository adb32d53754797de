import { z } from 'zod';
import { RulesCalibrationReportSchema } from '../wire/rules-calibration-schemas.js';
import {
  RuleSetDiffSchema,
  RuleSetPushAnswerSchema,
  RuleSetSummarySchema,
  RuleSetVersionSchema,
} from '../wire/rules-schemas.js';
import type { NovarchHttpClient } from './novarch-http-client.js';

export type RemoteRuleSetSummary = z.output<typeof RuleSetSummarySchema>;
export type RemoteRuleSetVersion = z.output<typeof RuleSetVersionSchema>;

function teamPath(tenantId: string, teamId: string): string {
  return `/v1/rules/${encodeURIComponent(tenantId)}/${encodeURIComponent(teamId)}`;
}

/**
 * `novarch rules push|list|show|diff --server`: a tenant's team rules through the server's
 * `/v1/rules` routes under an admin token (teams outside its grants are 404, as unknown ones).
 * A push is never repeated after a timeout (a repeat of the same content stores nothing anyway).
 */
export class RemoteRules {
  readonly #client: NovarchHttpClient;

  constructor(client: NovarchHttpClient) {
    this.#client = client;
  }

  push(tenantId: string, teamId: string, source: string): Promise<z.output<typeof RuleSetPushAnswerSchema>> {
    return this.#client.request('POST', teamPath(tenantId, teamId), {
      text: { contentType: 'application/yaml', content: source },
      schema: RuleSetPushAnswerSchema,
    });
  }

  list(filter: {
    tenantId?: string | undefined;
    teamId?: string | undefined;
  }): Promise<RemoteRuleSetSummary[]> {
    return this.#client.request('GET', '/v1/rules', {
      query: { tenantId: filter.tenantId, teamId: filter.teamId },
      schema: z.array(RuleSetSummarySchema),
      idempotent: true,
    });
  }

  /** One version (default the latest). */
  show(tenantId: string, teamId: string, version: number | undefined): Promise<RemoteRuleSetVersion> {
    return this.#client.request(
      'GET',
      `${teamPath(tenantId, teamId)}/versions/${version === undefined ? 'latest' : version}`,
      { schema: RuleSetVersionSchema, idempotent: true },
    );
  }

  diff(
    tenantId: string,
    teamId: string,
    from: number,
    to: number,
  ): Promise<z.output<typeof RuleSetDiffSchema>> {
    return this.#client.request('GET', `${teamPath(tenantId, teamId)}/diff`, {
      query: { from: String(from), to: String(to) },
      schema: RuleSetDiffSchema,
      idempotent: true,
    });
  }

  /** The team's latest pushed rules measured against the tenant's decided holds (`rules calibrate --server`). */
  calibration(
    tenantId: string,
    teamId: string,
    since: string | undefined,
  ): Promise<z.output<typeof RulesCalibrationReportSchema>> {
    return this.#client.request('GET', `${teamPath(tenantId, teamId)}/calibration`, {
      query: { since },
      schema: RulesCalibrationReportSchema,
      idempotent: true,
    });
  }
}

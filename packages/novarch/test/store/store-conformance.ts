import { describe } from 'vitest';
import { describeApprovalCases } from './approval-cases.js';
import { describeAuditCases } from './audit-cases.js';
import {
  createConformanceContext,
  type OpenStore,
  type StoreConformanceOptions,
} from './conformance-context.js';
import { describeEvidenceOrderCases } from './evidence-order-cases.js';
import { describeHistoryCases } from './history-cases.js';
import { describeHoldCases } from './hold-cases.js';
import { describeProposeActionCases } from './propose-action-cases.js';
import { describeRecordCases } from './record-cases.js';
import { describeRuleSetCases } from './rule-set-cases.js';
import { describeSessionCases } from './session-cases.js';
import { describeWebhookDeliveryCases } from './webhook-delivery-cases.js';
import { describeWithinScopeCases } from './within-scope-cases.js';

export type { OpenStore, StoreConformanceOptions } from './conformance-context.js';

/**
 * The behaviour every `NovarchStore` must have, written once and run for each implementation
 * (SQLite and PostgreSQL). `openStore` opens a store on a fresh, empty database; a case that
 * cannot apply to an implementation is listed in `options.skip` with the reason, and shows as skipped.
 */
export function describeStoreConformance(
  name: string,
  openStore: OpenStore,
  options: StoreConformanceOptions = {},
): void {
  describe(`NovarchStore conformance: ${name}`, () => {
    const context = createConformanceContext(openStore, options);
    describeSessionCases(context);
    describeRecordCases(context);
    describeProposeActionCases(context);
    describeEvidenceOrderCases(context);
    describeHistoryCases(context);
    describeHoldCases(context);
    describeApprovalCases(context);
    describeAuditCases(context);
    describeWithinScopeCases(context);
    describeRuleSetCases(context);
    describeWebhookDeliveryCases(context);
  });
}

// The operator console: what `novarch serve` mounts at /console.
export type { ConsoleContext } from './console-context.js';
export type {
  AuditSearch,
  ConsoleDecision,
  ConsoleDeps,
  ConsoleOperator,
  DecisionOutcome,
  KillOutcome,
  OperatorGrant,
  SessionSummary,
  SessionTimeline,
  TimelineEntry,
  TriageHold,
  WebhookDeliveryView,
} from './console-deps.js';
export { type ConsoleApp, type ConsoleAppOptions, createConsoleApp } from './create-console-app.js';
export { type StoreConsoleDepsOptions, storeConsoleDeps } from './store-console-deps.js';

// Notifications of Novarch (webhooks on new holds). The package's index.ts picks what it exports from here.

export { type DeliveryOutcome, deliverWebhook } from './deliver-webhook.js';
export {
  buildHoldWebhookPayload,
  HOLD_CREATED_EVENT,
  type HoldCreatedEvent,
  type HoldWebhookPayload,
  HoldWebhookPayloadSchema,
} from './hold-webhook-payload.js';
export { WEBHOOK_DEFAULTS, WebhookNotifier, type WebhookNotifierOptions } from './webhook-notifier.js';
export {
  DEFAULT_SIGNATURE_TOLERANCE_SECONDS,
  signWebhook,
  type VerifyWebhookOptions,
  verifyWebhookSignature,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookVerification,
} from './webhook-signature.js';
export { MIN_WEBHOOK_SECRET_LENGTH, WebhookConfigError, type WebhookTarget } from './webhook-target.js';

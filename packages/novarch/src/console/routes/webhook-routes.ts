import type { Hono } from 'hono';
import type { ConsoleContext, ConsoleEnv } from '../console-context.js';
import { renderWebhooks } from '../views/render-webhooks.js';
import { renderPage } from './render-page.js';

/** `GET /console/webhooks`: failed deliveries of the operator's tenants. */
export function registerWebhookRoutes(app: Hono<ConsoleEnv>, context: ConsoleContext): void {
  app.get('/webhooks', async (c) => {
    const { listWebhookFailures } = context.deps;
    const failures =
      listWebhookFailures === undefined ? undefined : await listWebhookFailures(c.get('session').operator);
    return renderPage(c, 'webhooks', 'Webhook deliveries', renderWebhooks(failures));
  });
}

import type { WebhookDeliveryView } from '../console-deps.js';
import { html, idPath, type Markup, timeTag } from './markup.js';

/** Failed webhook deliveries of the operator's tenants (or why there are none to show). */
export function renderWebhooks(failures: WebhookDeliveryView[] | undefined): Markup {
  if (failures === undefined) {
    return html`<p class="empty">This server sends no webhooks, so there are no deliveries to show.</p>`;
  }
  if (failures.length === 0) return html`<p class="empty">No webhook delivery has failed.</p>`;
  return html`<table class="webhooks">
<caption>Failed webhook deliveries</caption>
<thead><tr><th scope="col">Tenant</th><th scope="col">Hold</th><th scope="col">URL</th><th scope="col">Attempts</th><th scope="col">Last attempt</th><th scope="col">Last error</th></tr></thead>
<tbody>${failures.map(
    (item) => html`<tr>
<td>${item.tenantId}</td>
<td>${item.holdId === undefined ? '—' : html`<a href="/console/holds/${idPath(item.holdId)}">${item.holdId}</a>`}</td>
<td><code>${item.url}</code></td>
<td>${item.attempts}</td>
<td>${timeTag(item.lastAttemptAt)}</td>
<td>${item.lastError ?? ''}</td>
</tr>`,
  )}</tbody>
</table>`;
}

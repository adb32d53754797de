import type { ViewMetric } from '../view-data.js';
import { score } from './format-values.js';
import { html, type SafeHtml } from './html.js';

function metricState(metric: ViewMetric): SafeHtml {
  if (metric.error !== undefined) return html`<span class="badge badge-errored">error</span>`;
  return metric.passed
    ? html`<span class="badge badge-passed">pass</span>`
    : html`<span class="badge badge-failed">fail</span>`;
}

/** A table of metric outcomes: result, score, pass mark and the reason in full. */
export function renderMetricsTable(metrics: readonly ViewMetric[], caption: string): SafeHtml {
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="${caption}"><table class="metrics"><caption>${caption}</caption>
    <thead><tr><th scope="col">Metric</th><th scope="col">Result</th><th scope="col" class="num">Score</th><th scope="col" class="num">Threshold</th><th scope="col">Reason</th></tr></thead>
    <tbody>${metrics.map(
      (metric) => html`<tr class="${metric.passed ? 'row-passed' : 'row-failed'}">
        <th scope="row">${metric.name}${metric.name !== metric.type ? html`<div class="muted small">${metric.type}</div>` : ''}${metric.weight !== undefined ? html`<div class="muted small">weight ${metric.weight}${metric.weight === 0 ? ' (not deciding)' : ''}</div>` : ''}</th>
        <td>${metricState(metric)}</td>
        <td class="num">${score(metric.score)}</td>
        <td class="num">${metric.threshold !== undefined ? score(metric.threshold) : '—'}</td>
        <td><div class="reason">${metric.reason}</div>${metric.error !== undefined ? html`<div class="reason is-error">${metric.error}</div>` : ''}</td>
      </tr>`,
    )}</tbody></table></div>`;
}

import type { ViewMatrix, ViewRun } from '../view-data.js';
import { cost, duration, percent, score } from './format-values.js';
import { html, type SafeHtml } from './html.js';
import { type PageMode, routeHref } from './page-route.js';

const STATUS_WORD = { pass: 'passed', fail: 'failed', error: 'errored', stopped: 'interrupted' } as const;

/**
 * The case × variant grid of a matrix run: a row per case, a column per variant; each cell its
 * status, attempts passed, pass rate, mean score, cost and mean attempt latency, linking to the
 * case under that variant. The best cell of a row is marked (★, and said for screen readers).
 */
export function renderMatrixGrid(run: ViewRun, matrix: ViewMatrix, mode: PageMode): SafeHtml {
  const header = matrix.variants.map(
    (variant) =>
      html`<th scope="col">${variant.name}<div class="muted small">${variant.provider} ${variant.model} · ${variant.backend} backend</div><div class="small">${percent(variant.summary.pass_rate)} passed · ${cost(variant.summary.cost_usd)}</div></th>`,
  );
  const rows = matrix.rows.map(
    (row) =>
      html`<tr><th scope="row">${row.name}</th>${row.cells.map((cell) => {
        if (!cell) return html`<td class="muted">not run</td>`;
        const href = routeHref({ page: 'case', runId: run.run_id, caseName: cell.case_name }, mode);
        return html`<td class="matrix-cell row-${STATUS_WORD[cell.status]}${cell.best ? ' best' : ''}">${cell.best ? html`<span aria-hidden="true">★ </span><span class="visually-hidden">best of the row: </span>` : ''}<a href="${href}"><span class="badge badge-${STATUS_WORD[cell.status]}">${STATUS_WORD[cell.status]}</span></a> ${cell.passed}/${cell.finished} · ${percent(cell.pass_rate)}<div class="muted small">score ${score(cell.score)} · ${cost(cell.cost_usd)} · ${duration(cell.latency_ms)}</div></td>`;
      })}</tr>`,
  );
  return html`<section aria-labelledby="matrix-heading"><h2 id="matrix-heading">Variants</h2>
    <div class="table-wrap" tabindex="0" role="region" aria-label="Case by variant"><table class="cases matrix">
    <caption>${matrix.rows.length} case(s) × ${matrix.variants.length} variant(s); ★ best of the row (pass rate, then score, cost, latency)</caption>
    <thead><tr><th scope="col">Case</th>${header}</tr></thead>
    <tbody>${rows}</tbody>
    </table></div></section>`;
}

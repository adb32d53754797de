import type { ViewAttempt, ViewCase } from '../view-data.js';
import { failuresOfAttempt } from './case-failures.js';
import { score } from './format-values.js';
import { html, type SafeHtml } from './html.js';
import { renderTextDiff } from './render-text-diff.js';

interface MetricRow {
  label: string;
  cells: ({ passed: boolean; score: number } | undefined)[];
}

/** Every metric of the attempts (turn metrics as `turn N name`), one cell per attempt. */
function metricRows(attempts: readonly ViewAttempt[]): MetricRow[] {
  const rows = new Map<string, MetricRow>();
  attempts.forEach((attempt, column) => {
    const add = (label: string, passed: boolean, value: number) => {
      const row = rows.get(label) ?? { label, cells: attempts.map(() => undefined) };
      row.cells[column] = { passed, score: value };
      rows.set(label, row);
    };
    for (const metric of attempt.metrics) add(metric.name, metric.passed, metric.score);
    (attempt.turns ?? []).forEach((turn, index) => {
      for (const metric of turn.metrics) add(`turn ${index + 1} ${metric.name}`, metric.passed, metric.score);
    });
  });
  return [...rows.values()];
}

/**
 * A flaky case: which attempts differed and how. The metrics whose outcome changed between
 * attempts, attempt by attempt, and each failed attempt's answer against a passing one's.
 */
export function renderAttemptDifferences(testCase: ViewCase): SafeHtml {
  const { attempts } = testCase;
  const passing = attempts.find((attempt) => attempt.passed);
  const failing = attempts.filter((attempt) => !attempt.passed);
  if (attempts.length < 2 || !passing || !failing.length) return html``;
  const differing = metricRows(attempts).filter(
    (row) => new Set(row.cells.map((cell) => cell?.passed)).size > 1,
  );
  return html`<section class="differences" aria-labelledby="differences-heading"><h2 id="differences-heading">How the attempts differed</h2>
    <p>Attempts ${attempts
      .filter((attempt) => attempt.passed)
      .map((attempt) => attempt.attempt)
      .join(', ')} passed; ${failing.map((attempt) => attempt.attempt).join(', ')} did not.</p>
    ${
      differing.length
        ? html`<div class="table-wrap" tabindex="0" role="region" aria-label="Metrics that differed between attempts"><table class="metrics"><caption>Metrics whose outcome changed between attempts</caption>
      <thead><tr><th scope="col">Metric</th>${attempts.map((attempt) => html`<th scope="col" class="num">Attempt ${attempt.attempt}</th>`)}</tr></thead>
      <tbody>${differing.map(
        (row) =>
          html`<tr><th scope="row">${row.label}</th>${row.cells.map((cell) =>
            cell
              ? html`<td class="num ${cell.passed ? 'ok' : 'bad'}">${score(cell.score)} ${cell.passed ? 'pass' : 'fail'}</td>`
              : html`<td class="num muted">—</td>`,
          )}</tr>`,
      )}</tbody></table></div>`
        : ''
    }
    ${failing.map((attempt) =>
      attempt.error !== undefined
        ? html`<h3>Attempt ${attempt.attempt}</h3><p class="reason is-error">run error: ${attempt.error}</p>`
        : html`<h3>Attempt ${attempt.attempt}'s answer against attempt ${passing.attempt}'s</h3>
          <p class="small">Failing: ${failuresOfAttempt(attempt)
            .map((failure) =>
              failure.turn ? `turn ${failure.turn} ${failure.metric.name}` : failure.metric.name,
            )
            .join(', ')}</p>
          ${renderTextDiff(passing.response, attempt.response, { before: `attempt ${passing.attempt}`, after: `attempt ${attempt.attempt}` })}`,
    )}
  </section>`;
}

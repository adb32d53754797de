import { STATUS_LABEL } from './case-status.js';
import { formatCost, formatDuration, formatPercent, formatScore } from './format-units.js';
import { type MatrixCell, matrixGrid } from './matrix-grid.js';
import { renderTotals } from './render-summary.js';
import { createReportStyle } from './report-style.js';
import type { RunReport } from './run-report.js';

const NAME_WIDTH = 32;

/** `* PASS 3/3 100% 1 $0.0012 1.2 s`: status, attempts passed, pass rate, score, cost, latency. */
function cellText(cell: MatrixCell | undefined): string {
  if (!cell) return '  not run';
  const mark = cell.best ? '*' : ' ';
  return `${mark} ${STATUS_LABEL[cell.status]} ${cell.passed}/${cell.finished} ${formatPercent(cell.passRate)} ${formatScore(cell.score)} ${formatCost(cell.costUsd)} ${formatDuration(cell.latencyMs)}`;
}

/**
 * The end of a matrix run: a case × variant grid (each cell: status, attempts passed, pass rate,
 * mean score, cost, mean latency of an attempt; `*` marks the best of the row), a legend, then
 * each variant's totals and the run's. Plain text; colours only when `color` says so.
 */
export function renderMatrixSummary(report: RunReport, options: { color: boolean }): string {
  const style = createReportStyle(options.color);
  const grid = matrixGrid(report);
  const header = ['Case', ...grid.variants.map((variant) => variant.name)];
  const rows = grid.rows.map((row) => [
    row.name.length > NAME_WIDTH ? `${row.name.slice(0, NAME_WIDTH - 1)}…` : row.name,
    ...row.cells.map(cellText),
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  const lines = [
    `Matrix: ${grid.variants.length} variants × ${grid.rows.length} cases`,
    '',
    style.bold(line(header)),
    ...grid.rows.map((row, index) => {
      const text = rows[index] ?? [];
      return text
        .map((cell, column) => {
          const padded = cell.padEnd(widths[column] ?? 0);
          const value = column === 0 ? undefined : row.cells[column - 1];
          return value ? style.status(value.status, value.best ? style.bold(padded) : padded) : padded;
        })
        .join('  ')
        .trimEnd();
    }),
    '',
    style.dim(
      'cell: status, attempts passed/finished, pass rate, mean score, cost, mean attempt latency; * best of the row',
    ),
    '',
    ...grid.variants.map(
      (variant) =>
        `${variant.name} (${variant.provider} ${variant.model}, ${variant.backend} backend${variant.interrupted ? ', stopped' : ''}): ${renderTotals(variant.summary, options)}`,
    ),
    `all variants: ${renderTotals(report.summary, options)}`,
  ];
  return `${lines.join('\n')}\n`;
}

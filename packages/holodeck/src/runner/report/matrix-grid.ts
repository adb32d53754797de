import { countAttempts } from './case-state.js';
import { type CaseStatus, caseStatus } from './case-status.js';
import type { CaseReport, MatrixVariantReport, RunReport } from './run-report.js';

/** One cell of the case × variant grid: a case's outcome under one variant. */
export interface MatrixCell {
  status: CaseStatus;
  /** Passed / finished attempts. */
  passed: number;
  finished: number;
  /** passed / finished; 0 when none finished. */
  passRate: number;
  /** Mean score of the attempts. */
  score: number;
  /** Sum over the attempts, USD; null when one attempt's cost is unknown. */
  costUsd: number | null;
  /** Mean duration of one attempt, ms. */
  latencyMs: number;
  /** The best of its row: highest pass rate, then score, then lowest cost, then latency (ties all marked). */
  best: boolean;
}

/** The grid of a matrix run: one row per case (suite order), one cell per variant (absent: not run). */
export interface MatrixGrid {
  variants: readonly MatrixVariantReport[];
  rows: { name: string; cells: (MatrixCell | undefined)[] }[];
}

function cellOf(caseReport: CaseReport): MatrixCell {
  const counts = countAttempts(caseReport.attempts);
  const attempts = caseReport.attempts.length;
  const costs = caseReport.attempts.map((attempt) => attempt.cost_usd);
  return {
    status: caseStatus(caseReport),
    passed: counts.passed,
    finished: counts.finished,
    passRate: caseReport.pass_rate,
    score: caseReport.score,
    costUsd: costs.some((cost) => cost === null)
      ? null
      : costs.reduce<number>((sum, cost) => sum + (cost ?? 0), 0),
    latencyMs: attempts
      ? caseReport.attempts.reduce((sum, attempt) => sum + attempt.duration_ms, 0) / attempts
      : caseReport.duration_ms,
    best: false,
  };
}

/** Lower is better; a finished cell beats one that did not finish, a known cost an unknown one. */
function rank(cell: MatrixCell): number[] {
  return [
    cell.status === 'error' || cell.status === 'stopped' ? 1 : 0,
    -cell.passRate,
    -cell.score,
    cell.costUsd ?? Number.POSITIVE_INFINITY,
    cell.latencyMs,
  ];
}

function compareRanks(a: number[], b: number[]): number {
  for (const [index, value] of a.entries()) {
    const other = b[index] ?? 0;
    if (value !== other) return value < other ? -1 : 1;
  }
  return 0;
}

/** The case × variant grid of a matrix run, the best cell of each row marked. */
export function matrixGrid(report: RunReport): MatrixGrid {
  const variants = report.matrix?.variants ?? [];
  const names: string[] = [];
  for (const caseReport of report.cases) if (!names.includes(caseReport.name)) names.push(caseReport.name);
  const rows = names.map((name) => {
    const cells = variants.map((variant) => {
      const found = report.cases.find(
        (caseReport) => caseReport.name === name && caseReport.variant === variant.name,
      );
      return found ? cellOf(found) : undefined;
    });
    const present = cells.filter((cell): cell is MatrixCell => cell !== undefined);
    // One variant alone has no better: nothing is marked.
    if (present.length > 1) {
      const best = present.reduce((top, cell) => (compareRanks(rank(cell), rank(top)) < 0 ? cell : top));
      for (const cell of present) cell.best = compareRanks(rank(cell), rank(best)) === 0;
      if (present.every((cell) => cell.best)) for (const cell of present) cell.best = false;
    }
    return { name, cells };
  });
  return { variants, rows };
}

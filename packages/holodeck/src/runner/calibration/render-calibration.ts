import type { Interval } from 'verdict-stats';
import { formatPercent } from '../report/format-units.js';
import { createReportStyle } from '../report/report-style.js';
import type { CalibrationReport, MetricCalibration } from './calibration-report.js';

/** Options of renderCalibration. */
export interface RenderCalibrationOptions {
  color: boolean;
  /** Disagreements listed per metric; default 10. */
  disagreementsShown?: number;
}

/** Judge reasons are model text: no control characters reach the terminal. */
function oneLine(text: string, limit = 160): string {
  const flat = text.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').trim();
  return flat.length > limit ? `${flat.slice(0, limit - 1)}…` : flat;
}

function spread(interval: Interval | null): string {
  return interval ? `[${formatPercent(interval.lower)}, ${formatPercent(interval.upper)}]` : '';
}

function rate(interval: Interval | null, of: string): string {
  return interval ? `${formatPercent(interval.estimate)} of ${of} ${spread(interval)}` : `no ${of}`;
}

function renderMetric(
  metric: MetricCalibration,
  style: ReturnType<typeof createReportStyle>,
  shown: number,
): string[] {
  const { confusion, kappa } = metric;
  const lines = [
    style.bold(`${metric.metric} (${metric.type})`) +
      ` ${metric.labels.file}: ${metric.labels.examples} examples, ${metric.judged} judged${metric.errored ? `, ${style.yellow(`${metric.errored} errored`)}` : ''}`,
  ];
  if (metric.judged === 0) {
    lines.push('  no example could be judged: see the errors below');
  } else {
    const kappaText =
      kappa.estimate === null
        ? 'undefined (human and judge gave every example the same verdict)'
        : `${kappa.estimate.toFixed(2)} ${kappa.interval ? `[${kappa.interval.lower.toFixed(2)}, ${kappa.interval.upper.toFixed(2)}]` : ''}`;
    let verdict = '';
    if (metric.min_kappa !== undefined) {
      const met = kappa.estimate !== null && kappa.estimate >= metric.min_kappa;
      verdict = `  min_kappa ${metric.min_kappa}: ${met ? style.green('met') : style.red('NOT met')}`;
    }
    const width = Math.max(String(confusion.true_pass + confusion.false_pass).length, 4);
    const cell = (value: number) => String(value).padStart(width + 6);
    lines.push(
      `  agreement         ${metric.agreement ? `${formatPercent(metric.agreement.estimate)} ${spread(metric.agreement)}` : '-'}`,
      `  Cohen's kappa     ${kappaText}${verdict}`,
      `  base rate         ${metric.base_rate ? formatPercent(metric.base_rate.estimate) : '-'} labelled pass; the judge passed ${metric.judge_pass_rate ? formatPercent(metric.judge_pass_rate.estimate) : '-'}`,
      `  confusion         ${'judge pass'.padStart(width + 6)}${'judge fail'.padStart(width + 6)}`,
      `    human pass      ${cell(confusion.true_pass)}${cell(confusion.false_fail)}`,
      `    human fail      ${cell(confusion.false_pass)}${cell(confusion.true_fail)}`,
      `  false pass        ${rate(metric.false_pass_rate, 'the human fails')}`,
      `  false fail        ${rate(metric.false_fail_rate, 'the human passes')}`,
    );
    const consistency = metric.self_consistency;
    lines.push(
      consistency.samples < 2
        ? '  self-consistency  not measured (1 sample per example; use --samples 3)'
        : `  self-consistency  ${consistency.flipped} of ${consistency.examples} examples flipped across ${consistency.samples} samples${consistency.flip_rate ? ` (${formatPercent(consistency.flip_rate.estimate)} ${spread(consistency.flip_rate)})` : ''}`,
    );
    if (metric.mean_score_difference !== undefined)
      lines.push(`  score difference  ${metric.mean_score_difference.toFixed(3)} mean |judge − human|`);
  }
  const wrong = metric.examples.filter((example) => example.verdict !== example.label);
  if (wrong.length > 0) {
    lines.push('  disagreements:');
    for (const example of wrong.slice(0, shown)) {
      const what =
        example.verdict === 'error'
          ? style.yellow('judge error')
          : `human ${example.label}, judge ${example.verdict}`;
      lines.push(`    ${metric.labels.file}:${example.line}  ${what}: ${oneLine(example.reason)}`);
    }
    if (wrong.length > shown) lines.push(`    … ${wrong.length - shown} more in the JSON report`);
  }
  return lines;
}

/** The calibration in words, for the terminal: one block per metric. */
export function renderCalibration(report: CalibrationReport, options: RenderCalibrationOptions): string {
  const style = createReportStyle(options.color);
  const samples = report.samples === 1 ? '1 judgement' : `${report.samples} judgements`;
  const lines = [
    `Calibration ${report.calibration_id} of judge ${report.judge.model} (${report.judge.provider}): ${samples} per example, intervals at ${formatPercent(report.confidence)}`,
  ];
  if (report.interrupted) lines.push(style.yellow('interrupted: not every metric was calibrated'));
  for (const metric of report.metrics)
    lines.push('', ...renderMetric(metric, style, options.disagreementsShown ?? 10));
  return `${lines.join('\n')}\n`;
}

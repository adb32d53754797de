import type { Interval } from 'verdict-stats';
import type { RulesCalibrationReport } from '../rules/calibrate/calibrate-rules.js';
import { formatTable } from './format-table.js';
import { line, type StyledText } from './styled-text.js';

const percent = (value: number) => `${Number((value * 100).toFixed(1))}%`;
const bounds = (interval: Interval | null) =>
  interval === null ? '' : ` [${interval.lower.toFixed(2)}, ${interval.upper.toFixed(2)}]`;

/**
 * `novarch rules calibrate` in words: what was labelled, then one row per rule: its kind, the
 * labelled actions it applies to, agreement, kappa with its interval, the confusion matrix
 * (refused = held or killed) and the holds operators approved.
 */
export function formatRulesCalibration(report: RulesCalibrationReport): StyledText {
  const scope = report.tenantId === undefined ? '' : ` (tenant ${report.tenantId})`;
  const since = report.since === undefined ? '' : ` since ${report.since}`;
  const lines: StyledText[number][] = [
    line(
      `Calibration of team ${report.team}${scope}${since}: ${report.labelled} labelled actions (${report.fromHolds} from decided holds, ${report.fromLabels} from labels)`,
    ),
    line(`passes a human later reversed: ${report.reversedPasses}`),
  ];
  if (report.notRejudged > 0)
    lines.push(
      line({
        text: `${report.notRejudged} labelled actions of LLM rules not re-judged: pass --with-judge --config FILE`,
        tone: 'yellow',
      }),
    );
  const rows = report.rules.map((rule) => [
    rule.ruleId,
    rule.llm ? 'llm' : 'cel',
    String(rule.judged),
    rule.agreement === null ? '-' : percent(rule.agreement.estimate),
    rule.kappa === null
      ? rule.judged === 0
        ? '-'
        : 'undefined'
      : `${rule.kappa.toFixed(2)}${bounds(rule.kappaInterval)}`,
    String(rule.confusion.both_kill),
    String(rule.confusion.rule_kill_human_pass),
    String(rule.confusion.rule_pass_human_kill),
    String(rule.confusion.both_pass),
    String(rule.needlessHolds),
  ]);
  lines.push(
    line(''),
    ...formatTable(
      [
        'rule',
        'kind',
        'labelled',
        'agreement',
        'kappa [95%]',
        'both refused',
        'rule refused, human passed',
        'rule passed, human refused',
        'both passed',
        'needless holds',
      ],
      rows,
    ),
  );
  return lines;
}

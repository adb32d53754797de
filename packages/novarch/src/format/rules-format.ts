import type { Citations, RuleSetReference } from '../model/records.js';
import type { StoredRuleSet, StoredRuleSetSummary } from '../model/stored-rule-set.js';
import { type DiffLine, diffLines } from '../rules/diff-lines.js';
import type { ReplayedDecision, ReplayReport } from '../rules/replay/replay-rules.js';
import { NOT_REJUDGED_LLM } from '../rules/replay/replay-rules.js';
import type { ShadowReport } from '../rules/report/shadow-report.js';
import { formatTable } from './format-table.js';
import { agentText, neutralise } from './neutralise-text.js';
import { line, plainLines, type StyledLine, type StyledText, span } from './styled-text.js';

/** A content hash as tables show it: `sha256:` and its first 12 hex digits. */
export function shortHash(hash: string): string {
  return `sha256:${hash.slice(0, 12)}`;
}

/** `novarch rules list`. */
export function formatRuleSetsTable(sets: readonly StoredRuleSetSummary[]): StyledText {
  if (sets.length === 0)
    return plainLines('No rules pushed yet (push a rules file with `novarch rules push FILE`).');
  return formatTable(
    ['TEAM', 'VERSION', 'CONTENT HASH', 'PUSHED', 'BY'],
    sets.map((set) => [set.team, `v${set.version}`, shortHash(set.contentHash), set.pushedAt, set.pushedBy]),
  );
}

/** `novarch rules list --server`: the versions of the tenants' teams the admin token sees. */
export function formatServerRuleSetsTable(
  sets: readonly (StoredRuleSetSummary & { tenantId: string })[],
): StyledText {
  if (sets.length === 0)
    return plainLines(
      'No rules pushed to this server yet (push a rules file with `novarch rules push FILE --server URL --tenant TENANT`).',
    );
  return formatTable(
    ['TENANT', 'TEAM', 'VERSION', 'CONTENT HASH', 'PUSHED', 'BY'],
    sets.map((set) => [
      set.tenantId,
      set.team,
      `v${set.version}`,
      shortHash(set.contentHash),
      set.pushedAt,
      set.pushedBy,
    ]),
  );
}

function describeStored(set: StoredRuleSet): string {
  return `${set.team} v${set.version} (${shortHash(set.contentHash)}, pushed ${set.pushedAt} by ${neutralise(set.pushedBy)})`;
}

const CONTEXT_LINES = 3;

/** Groups a diff into hunks: changed lines with up to three unchanged lines around them. */
function hunks(lines: readonly DiffLine[]): DiffLine[][] {
  const changed = lines.flatMap((line, index) => (line.kind === 'same' ? [] : [index]));
  const groups: DiffLine[][] = [];
  let start = -1;
  let end = -1;
  for (const index of changed) {
    if (start !== -1 && index - CONTEXT_LINES <= end + CONTEXT_LINES) {
      end = index;
      continue;
    }
    if (start !== -1) groups.push(lines.slice(Math.max(0, start - CONTEXT_LINES), end + CONTEXT_LINES + 1));
    start = index;
    end = index;
  }
  if (start !== -1) groups.push(lines.slice(Math.max(0, start - CONTEXT_LINES), end + CONTEXT_LINES + 1));
  return groups;
}

function hunkHeader(hunk: readonly DiffLine[]): string {
  const olds = hunk.filter((line) => line.kind !== 'added');
  const news = hunk.filter((line) => line.kind !== 'removed');
  const range = (first: number | undefined, count: number) => `${first ?? 0},${count}`;
  return `@@ -${range(olds[0]?.oldLine, olds.length)} +${range(news[0]?.newLine, news.length)} @@`;
}

/** `novarch rules diff`: a unified line diff of two stored versions (three lines of context). */
export function formatRuleSetDiff(before: StoredRuleSet, after: StoredRuleSet): StyledText {
  const header = [line(`--- ${describeStored(before)}`), line(`+++ ${describeStored(after)}`)];
  const groups = hunks(diffLines(before.content, after.content));
  if (groups.length === 0) return [...header, line('(the two versions have the same content)')];
  const body = groups.flatMap((hunk) => [
    line(span(hunkHeader(hunk), 'dim')),
    ...hunk.map((diffed): StyledLine => {
      const text = neutralise(diffed.text);
      if (diffed.kind === 'removed') return line(span(`-${text}`, 'red'));
      if (diffed.kind === 'added') return line(span(`+${text}`, 'green'));
      return line(` ${text}`);
    }),
  ]);
  return [...header, ...body];
}

function describeRuleSet(reference: RuleSetReference, file: string | undefined): string {
  const version = reference.version === null ? (file ?? 'file') : `${reference.team} v${reference.version}`;
  return `${version} ${shortHash(reference.contentHash)}`;
}

/** A verdict's kind, cited rules (with versions) and the rule sets it was judged by; then its rationale. */
function describeVerdict(kind: string, citations: Citations, file?: string): [string, string] {
  const rules =
    citations.rules !== undefined && citations.rules.length > 0
      ? citations.rules.map((rule) => `${rule.id} v${rule.version}`).join(', ')
      : citations.ruleIds.join(', ');
  const sets = (citations.ruleSets ?? []).map((set) => describeRuleSet(set, file));
  const by = sets.length > 0 ? sets.join(', ') : 'rule set not recorded';
  return [
    `${kind.padEnd(4)}  rules [${rules || 'none'}]  by ${by}`,
    `      ${neutralise(citations.rationale)}`,
  ];
}

function describeDecision(decision: ReplayedDecision, file: string): StyledLine[] {
  const { entry, before, after } = decision;
  const context = entry.action.context;
  const head = `${entry.action.createdAt}  ${entry.action.id}  session ${entry.session.id}  agent ${neutralise(entry.session.agentId)}  ${neutralise(entry.action.actionType)} ${agentText(context.recordId)}: ${agentText(context.summary)}`;
  const [was, wasWhy] = describeVerdict(before.verdict.kind, before.verdict.citations);
  const [now, nowWhy] = describeVerdict(after.kind, after.citations, file);
  return [
    line(head),
    line(`  was ${was}`),
    line(wasWhy),
    line('  now ', span(now, 'bold')),
    line(span(nowWhy, 'bold')),
  ];
}

/** `novarch rules test`: every decision that would change, then those not re-judged, then the counts. */
export function formatReplayReport(report: ReplayReport, file: string): StyledText {
  const since = report.since === undefined ? '' : ` since ${report.since}`;
  const lines: StyledLine[] = [
    line(
      `Re-judged ${report.judged} decision${report.judged === 1 ? '' : 's'} of ${report.sessions} session${report.sessions === 1 ? '' : 's'} of team ${neutralise(report.team)}${since} under ${neutralise(file)}:`,
    ),
    line(
      `  ${report.changed.length} would change, ${report.notRejudged.length} ${NOT_REJUDGED_LLM}, ${report.unchanged} unchanged` +
        (report.skipped > 0
          ? `, ${report.skipped} without a judge verdict (refused by the gate) skipped`
          : ''),
    ),
  ];
  if (report.changed.length > 0) {
    lines.push(line(), line(span('Would change:', 'bold')));
    for (const decision of report.changed) lines.push(...describeDecision(decision, file));
  }
  if (report.notRejudged.length > 0) {
    lines.push(line(), line(span('Not re-judged (LLM rule; pass --with-judge):', 'bold')));
    for (const decision of report.notRejudged) lines.push(...describeDecision(decision, file));
  }
  return lines;
}

/** The replay report as `--json` prints it. */
export function replayReportJson(report: ReplayReport): unknown {
  const decision = ({ entry, before, after }: ReplayedDecision) => ({
    actionId: entry.action.id,
    sessionId: entry.session.id,
    tenantId: entry.session.tenantId,
    teamId: entry.session.teamId,
    agentId: entry.session.agentId,
    actionType: entry.action.actionType,
    createdAt: entry.action.createdAt,
    context: entry.action.context,
    before: {
      verdictId: before.id,
      kind: before.verdict.kind,
      citations: before.verdict.citations,
      decidedAt: before.decidedAt,
    },
    after: { kind: after.kind, citations: after.citations },
  });
  return {
    team: report.team,
    ...(report.since === undefined ? {} : { since: report.since }),
    sessions: report.sessions,
    judged: report.judged,
    unchanged: report.unchanged,
    skipped: report.skipped,
    changed: report.changed.map(decision),
    notRejudged: report.notRejudged.map(decision),
  };
}

/** `novarch rules report`: per monitored rule, the writes it was evaluated on and what it would have changed. */
export function formatShadowReport(report: ShadowReport): StyledText {
  const since = report.since === undefined ? '' : ` since ${report.since}`;
  const head = `Monitored rules of team ${neutralise(report.team)}${since}, over ${report.judged} judged write${report.judged === 1 ? '' : 's'}:`;
  if (report.rules.length === 0)
    return plainLines(
      `${head}\n  none recorded (a rule with mode: monitor records what it would have decided)`,
    );
  const lines: StyledLine[] = [line(head)];
  for (const rule of report.rules) {
    lines.push(
      line(
        span(`${neutralise(rule.ruleId)} v${rule.version}`, 'bold'),
        `: evaluated ${rule.evaluated}, would have held ${rule.wouldHold}, would have killed ${rule.wouldKill}`,
      ),
    );
    for (const example of rule.examples)
      lines.push(
        line(
          `  ${example.actionId}: ${example.recorded} → ${example.would}: ${neutralise(example.rationale)}`,
        ),
      );
  }
  return lines;
}

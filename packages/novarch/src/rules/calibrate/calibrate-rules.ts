import { cohenKappa, type Interval, wilsonScoreInterval } from 'verdict-stats';
import type { AuditEntry, NovarchStore } from '../../model/novarch-store.js';
import type { EvidenceRecord, Verdict } from '../../model/records.js';
import { citeRuleSets } from '../cite-rule-sets.js';
import { judgeAction } from '../judge-action.js';
import { AbsentLlmJudge } from '../llm/absent-llm-judge.js';
import type { LlmJudge } from '../llm/llm-judge.js';
import { ReplayScopeError } from '../replay/replay-rules.js';
import type { RuleSet } from '../rule-set.js';
import { type ActionLabel, collectLabels, type LabelEntry, type RuleLabel } from './rule-labels.js';

/** What `calibrateRules` measures. */
export interface CalibrateRulesOptions {
  store: Pick<NovarchStore, 'audit' | 'listEvidence'>;
  /** The team's current rules: the labelled actions are re-judged under them. */
  ruleSet: RuleSet;
  /** Labels of `novarch rules label` (a labels file); decided holds are labels too. */
  labels?: readonly LabelEntry[];
  since?: string;
  /** Required when the team's sessions belong to several tenants (one tenant's labels only). */
  tenantId?: string;
  /** Judges the rules without a condition; without one, their actions are not re-judged. */
  llmJudge?: LlmJudge;
  judgeTimeoutMs?: number;
  confidence?: number;
}

/** Human against re-judged rule, counted. `kill` is a refusal (hold or kill), the positive class. */
export interface RuleConfusion {
  /** Both refused it. */
  both_kill: number;
  /** The human passed it, the rule refused it. */
  rule_kill_human_pass: number;
  /** The human refused it, the rule let it pass. */
  rule_pass_human_kill: number;
  both_pass: number;
}

/** One rule measured against the humans. */
export interface RuleCalibration {
  ruleId: string;
  llm: boolean;
  /** Labelled actions the rule applies to that were re-judged. */
  judged: number;
  confusion: RuleConfusion;
  agreement: Interval | null;
  kappa: number | null;
  kappaInterval: Interval | null;
  /** Holds the rule caused (as recorded) that an operator approved. */
  needlessHolds: number;
}

/** What `calibrateRules` found for a team. */
export interface RulesCalibrationReport {
  team: string;
  tenantId?: string;
  since?: string;
  /** Labelled actions: decided holds and labels. */
  labelled: number;
  fromHolds: number;
  fromLabels: number;
  /** Labelled actions the LLM judge was needed for and not given. */
  notRejudged: number;
  /** Actions the judge passed (as recorded) that a human later labelled kill. */
  reversedPasses: number;
  rules: RuleCalibration[];
}

const refused = (verdict: Verdict, ruleId: string) =>
  verdict.kind !== 'pass' && verdict.citations.ruleIds.includes(ruleId);

/**
 * Re-judges a team's labelled actions under its current rules (as `replayRules` does: each action
 * with the evidence its session had then) and measures each rule against the human labels: the
 * confusion matrix (a refusal, hold or kill, against a label `kill`), agreement and Cohen's kappa
 * with their intervals (verdict-stats), and the holds the rule caused that operators approved.
 * Reads the store only; tenant-scoped like the replay.
 */
export async function calibrateRules(options: CalibrateRulesOptions): Promise<RulesCalibrationReport> {
  const { ruleSet, since } = options;
  const confidence = options.confidence ?? 0.95;
  const entries = await options.store.audit({
    teamId: ruleSet.team,
    ...(since === undefined ? {} : { since }),
    ...(options.tenantId === undefined ? {} : { tenantId: options.tenantId }),
  });
  const tenants = [...new Set(entries.map((entry) => entry.session.tenantId))].sort();
  if (options.tenantId === undefined && tenants.length > 1)
    throw new ReplayScopeError(
      `the sessions of team ${ruleSet.team} belong to ${tenants.length} tenants (${tenants.join(', ')}): pass --tenant TENANT to calibrate on one tenant's decisions`,
    );
  const labels = collectLabels(entries, options.labels ?? []);
  const byId = new Map(entries.map((entry) => [entry.action.id, entry]));
  const { pairs, notRejudged, reversedPasses } = await rejudgeLabelled(labels.values(), byId, options);
  const all = [...labels.values()].filter((label) => byId.has(label.actionId));
  return {
    team: ruleSet.team,
    ...(options.tenantId === undefined ? {} : { tenantId: options.tenantId }),
    ...(since === undefined ? {} : { since }),
    labelled: all.length,
    fromHolds: all.filter((label) => label.source === 'hold').length,
    fromLabels: all.filter((label) => label.source === 'label').length,
    notRejudged,
    reversedPasses,
    rules: ruleSet.rules.map((rule) => calibrateRule(rule, pairs, entries, confidence)),
  };
}

/** A labelled action and its verdict re-judged under the current rules. */
interface RejudgedPair {
  entry: AuditEntry;
  label: ActionLabel;
  after: Verdict;
}

/** The judge's latest verdict of an entry, as recorded. */
const judgeVerdictOf = (entry: AuditEntry) =>
  entry.verdicts.filter((verdict) => verdict.source === 'judge').at(-1);

/**
 * Each labelled action of `byId` re-judged with the evidence its session had then; those that
 * needed the LLM judge without one are counted, not judged; passes a human labelled kill counted.
 */
async function rejudgeLabelled(
  labels: Iterable<ActionLabel>,
  byId: ReadonlyMap<string, AuditEntry>,
  options: CalibrateRulesOptions,
): Promise<{ pairs: RejudgedPair[]; notRejudged: number; reversedPasses: number }> {
  const { ruleSet } = options;
  const evidenceOf = new Map<string, Promise<EvidenceRecord[]>>();
  const pairs: RejudgedPair[] = [];
  let notRejudged = 0;
  let reversedPasses = 0;
  for (const label of labels) {
    const entry = byId.get(label.actionId);
    if (entry === undefined) continue;
    if (judgeVerdictOf(entry)?.verdict.kind === 'pass' && label.label === 'kill') reversedPasses += 1;
    let evidence = evidenceOf.get(entry.session.id);
    if (evidence === undefined) {
      evidence = options.store.listEvidence(entry.session.id);
      evidenceOf.set(entry.session.id, evidence);
    }
    const seen = (await evidence).filter((record) => record.finishedAt <= entry.action.createdAt);
    const absent = new AbsentLlmJudge('no judge');
    const verdict = await judgeAction({
      action: entry.action,
      evidence: seen,
      session: entry.session,
      rules: [ruleSet],
      llmJudge: options.llmJudge ?? absent,
      timeoutMs: options.judgeTimeoutMs ?? 30_000,
    });
    if (absent.asked) {
      notRejudged += 1;
      continue;
    }
    pairs.push({ entry, label, after: citeRuleSets(verdict, [ruleSet], entry.session.teamId) });
  }
  return { pairs, notRejudged, reversedPasses };
}

/** One rule against the humans' labels of the actions it applies to, and its needless holds. */
function calibrateRule(
  rule: RuleSet['rules'][number],
  pairs: readonly RejudgedPair[],
  entries: readonly AuditEntry[],
  confidence: number,
): RuleCalibration {
  const applies = pairs.filter((pair) => rule.appliesTo.includes(pair.entry.action.actionType));
  const confusion: RuleConfusion = {
    both_kill: 0,
    rule_kill_human_pass: 0,
    rule_pass_human_kill: 0,
    both_pass: 0,
  };
  for (const { label, after } of applies) {
    const ruleKill = refused(after, rule.id);
    const humanKill = label.label === ('kill' satisfies RuleLabel);
    if (ruleKill && humanKill) confusion.both_kill += 1;
    else if (ruleKill) confusion.rule_kill_human_pass += 1;
    else if (humanKill) confusion.rule_pass_human_kill += 1;
    else confusion.both_pass += 1;
  }
  const judged = applies.length;
  const kappa =
    judged === 0
      ? undefined
      : cohenKappa(
          [
            [confusion.both_kill, confusion.rule_kill_human_pass],
            [confusion.rule_pass_human_kill, confusion.both_pass],
          ],
          confidence,
        );
  const needlessHolds = entries.filter((entry) => {
    const before = judgeVerdictOf(entry);
    return (
      before?.verdict.kind === 'hold' &&
      before.verdict.citations.ruleIds.includes(rule.id) &&
      entry.hold?.status === 'approved'
    );
  }).length;
  return {
    ruleId: rule.id,
    llm: rule.condition === undefined,
    judged,
    confusion,
    agreement:
      judged === 0
        ? null
        : wilsonScoreInterval(confusion.both_kill + confusion.both_pass, judged, confidence),
    kappa: kappa?.kappa ?? null,
    kappaInterval: kappa?.interval ?? null,
    needlessHolds,
  };
}

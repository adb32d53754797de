import { NovarchError } from '../../errors.js';
import {
  type ActionHistoryStore,
  actionHistorySource,
  hasActionHistory,
} from '../../model/action-history.js';
import type { AuditEntry, NovarchStore, ReplayEvidenceStore } from '../../model/novarch-store.js';
import type { Verdict, VerdictRecord } from '../../model/records.js';
import { citeRuleSets } from '../cite-rule-sets.js';
import { judgeAction } from '../judge-action.js';
import { AbsentLlmJudge } from '../llm/absent-llm-judge.js';
import type { LlmJudge } from '../llm/llm-judge.js';
import type { RuleSet } from '../rule-set.js';

/** The reason a decision that needs the LLM judge was not re-judged without one. */
export const NOT_REJUDGED_LLM = 'not re-judged (LLM rule; pass --with-judge)';

/** What `replayRules` re-judges. */
export interface ReplayOptions {
  store: Pick<NovarchStore, 'audit'> & ReplayEvidenceStore & Partial<ActionHistoryStore>;
  /** The changed rules: their team's recorded actions are re-judged under them. */
  ruleSet: RuleSet;
  /** Only actions created at or after this time (ISO-8601 UTC). */
  since?: string;
  /**
   * The tenant whose decisions are re-judged. Required when sessions of the team belong to more
   * than one tenant: one tenant's rules change never re-judges another tenant's decisions.
   */
  tenantId?: string;
  /**
   * Applies rules without a condition. Without one, a decision that depends on such a rule is
   * reported as not re-judged (never guessed at).
   */
  llmJudge?: LlmJudge;
  /** The LLM judge's budget per action, in ms (default 30000). */
  judgeTimeoutMs?: number;
}

/** One recorded decision, re-judged. */
export interface ReplayedDecision {
  entry: AuditEntry;
  /** The judge's recorded verdict on the action. */
  before: VerdictRecord;
  /** The verdict under the changed rules (citing them). */
  after: Verdict;
}

/** What `replayRules` found. */
export interface ReplayReport {
  team: string;
  since?: string;
  /** Sessions whose actions were re-judged. */
  sessions: number;
  /** Actions with a recorded judge verdict, all re-judged or reported below. */
  judged: number;
  /** Decisions whose verdict kind would change (pass, hold, kill), oldest first. */
  changed: ReplayedDecision[];
  /** Decisions that need the LLM judge, which was not given; `after` holds them undecided. */
  notRejudged: ReplayedDecision[];
  /** Decisions whose verdict would stay the same. */
  unchanged: number;
  /** Actions of the team without a judge verdict (refused by the gate before any judgement). */
  skipped: number;
}

/** A replay that would mix tenants: the message says how to pick one. */
export class ReplayScopeError extends NovarchError {
  override name = 'ReplayScopeError';
}

/**
 * Re-judges the recorded actions of the rule set's team under `ruleSet`: each action with the
 * evidence its session had recorded by the time it was proposed, and the session's scope. CEL
 * conditions are deterministic, so a re-judgement is exact; rules without a condition need the
 * LLM judge (`llmJudge`), else the decision is listed in `notRejudged`. Reads the store only.
 */
export async function replayRules(options: ReplayOptions): Promise<ReplayReport> {
  const { ruleSet, since } = options;
  const entries = await options.store.audit({
    teamId: ruleSet.team,
    ...(since === undefined ? {} : { since }),
    ...(options.tenantId === undefined ? {} : { tenantId: options.tenantId }),
  });
  const tenants = [...new Set(entries.map((entry) => entry.session.tenantId))].sort();
  if (options.tenantId === undefined && tenants.length > 1)
    throw new ReplayScopeError(
      `the sessions of team ${ruleSet.team} belong to ${tenants.length} tenants (${tenants.join(', ')}): pass --tenant TENANT to replay one tenant's decisions`,
    );
  const report: ReplayReport = {
    team: ruleSet.team,
    ...(since === undefined ? {} : { since }),
    sessions: 0,
    judged: 0,
    changed: [],
    notRejudged: [],
    unchanged: 0,
    skipped: 0,
  };
  const sessions = new Set<string>();
  for (const entry of entries) {
    const before = entry.verdicts.filter((verdict) => verdict.source === 'judge').at(-1);
    if (before === undefined) {
      report.skipped += 1;
      continue;
    }
    report.judged += 1;
    sessions.add(entry.session.id);
    // What the judge saw: the evidence stored before the action, in the store's order (the
    // agent's clock, which stamps a read's times, decides nothing).
    const seen = await options.store.listEvidenceBefore(entry.action.id);
    const absent = new AbsentLlmJudge(NOT_REJUDGED_LLM);
    const verdict = await judgeAction({
      action: entry.action,
      evidence: seen,
      session: entry.session,
      rules: [ruleSet],
      llmJudge: options.llmJudge ?? absent,
      timeoutMs: options.judgeTimeoutMs ?? 30_000,
      // As of the recorded action, in the store's order: the answers the live judgement got.
      ...(hasActionHistory(options.store)
        ? { history: actionHistorySource(options.store, entry.action.id) }
        : {}),
    });
    const after = citeRuleSets(verdict, [ruleSet], entry.session.teamId);
    const decision = { entry, before, after };
    if (absent.asked) report.notRejudged.push(decision);
    else if (after.kind !== before.verdict.kind) report.changed.push(decision);
    else report.unchanged += 1;
  }
  report.sessions = sessions.size;
  return report;
}

import type { AuditEntry } from '../../model/novarch-store.js';
import type { Verdict } from '../../model/records.js';

/** How much a verdict stops a write: pass < hold < kill. */
const SEVERITY: Readonly<Record<Verdict['kind'], number>> = { pass: 0, hold: 1, kill: 2 };

/** At most this many example actions are kept per rule and change. */
const MAX_EXAMPLES = 5;

/** What one monitored rule (id and version) would have changed. */
export interface ShadowRuleReport {
  ruleId: string;
  version: number;
  /** Writes it was evaluated on. */
  evaluated: number;
  /** Passed writes it would have held. */
  wouldHold: number;
  /** Passed or held writes it would have killed. */
  wouldKill: number;
  /** Up to 5 actions it would have changed, oldest first: id, the recorded verdict, what it would have been. */
  examples: { actionId: string; recorded: Verdict['kind']; would: 'hold' | 'kill'; rationale: string }[];
}

/** `novarch rules report`: each monitored rule of a team, and what enforcing it would have changed. */
export interface ShadowReport {
  team: string;
  since?: string;
  /** Judge verdicts read. */
  judged: number;
  rules: ShadowRuleReport[];
}

/**
 * What each monitored rule would have changed, from the shadow outcomes the judge recorded with
 * each verdict: a write it would have stopped harder than its recorded verdict (a pass it would
 * have held or killed, a hold it would have killed). Reads recorded verdicts only; re-judges nothing.
 */
export function shadowReport(entries: readonly AuditEntry[], team: string, since?: string): ShadowReport {
  const byRule = new Map<string, ShadowRuleReport>();
  let judged = 0;
  const ordered = [...entries].sort((a, b) => a.action.createdAt.localeCompare(b.action.createdAt));
  for (const entry of ordered) {
    const verdict = entry.verdicts.filter((record) => record.source === 'judge').at(-1);
    if (verdict === undefined) continue;
    judged += 1;
    for (const outcome of verdict.verdict.citations.shadow ?? []) {
      const key = `${outcome.ruleId}\u0000${outcome.version}`;
      let rule = byRule.get(key);
      if (rule === undefined) {
        rule = {
          ruleId: outcome.ruleId,
          version: outcome.version,
          evaluated: 0,
          wouldHold: 0,
          wouldKill: 0,
          examples: [],
        };
        byRule.set(key, rule);
      }
      rule.evaluated += 1;
      const recorded = verdict.verdict.kind;
      if (outcome.decision === 'pass' || SEVERITY[outcome.decision] <= SEVERITY[recorded]) continue;
      if (outcome.decision === 'hold') rule.wouldHold += 1;
      else rule.wouldKill += 1;
      if (rule.examples.length < MAX_EXAMPLES)
        rule.examples.push({
          actionId: entry.action.id,
          recorded,
          would: outcome.decision,
          rationale: outcome.rationale,
        });
    }
  }
  const rules = [...byRule.values()].sort(
    (a, b) => a.ruleId.localeCompare(b.ruleId) || a.version - b.version,
  );
  return { team, ...(since === undefined ? {} : { since }), judged, rules };
}

import type { Verdict } from '../model/records.js';
import type { RuleOutcome } from './rule-outcome.js';

/**
 * Combines the outcomes of the applied rules: any kill → kill; else any hold → hold; else pass.
 * A refusal cites every violated rule (kills first) and the evidence those rules rest on; a pass
 * cites every applied rule and all the evidence they read.
 */
export function combineRuleOutcomes(outcomes: readonly RuleOutcome[], actionType: string): Verdict {
  const kills = outcomes.filter((outcome) => outcome.decision === 'kill');
  const holds = outcomes.filter((outcome) => outcome.decision === 'hold');
  if (kills.length > 0 || holds.length > 0) {
    const cited = [...kills, ...holds];
    return {
      kind: kills.length > 0 ? 'kill' : 'hold',
      citations: {
        ruleIds: cited.map((outcome) => outcome.ruleId),
        evidenceIds: unique(cited.flatMap((outcome) => outcome.evidenceIds)),
        rationale: cited.map((outcome) => outcome.rationale).join('; '),
      },
    };
  }
  const ruleIds = outcomes.map((outcome) => outcome.ruleId);
  return {
    kind: 'pass',
    citations: {
      ruleIds,
      evidenceIds: unique(outcomes.flatMap((outcome) => outcome.evidenceIds)),
      rationale: `all ${ruleIds.length} rule${ruleIds.length === 1 ? '' : 's'} for ${actionType} satisfied (${ruleIds.join(', ')})`,
    },
  };
}

function unique(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}

import type { HistorySource } from '../model/action-history.js';
import type { EvidenceRecord, SessionScope, ShadowOutcome, Verdict } from '../model/records.js';
import { errorMessage } from '../support.js';
import { buildCelActivation, type JudgedAction } from './build-cel-activation.js';
import { combineRuleOutcomes } from './combine-rule-outcomes.js';
import { evaluateConditionRule, listSizesOf } from './evaluate-condition-rule.js';
import { CelHistory } from './history/cel-history.js';
import { judgeRulesWithLlm } from './judge-rules-with-llm.js';
import type { LlmJudge } from './llm/llm-judge.js';
import { type RuleOutcome, undecided, violation } from './rule-outcome.js';
import type { Rule, RuleSet } from './rule-set.js';

/** What `judgeAction` judges, and with which rules. */
export interface JudgeActionOptions {
  action: JudgedAction;
  /** The session's evidence so far, in recorded order. */
  evidence: readonly EvidenceRecord[];
  session: SessionScope;
  /** Rule sets; only those whose `team` is the session's team are used. */
  rules: readonly RuleSet[];
  /** Applies rules without a condition; without one, such rules hold. */
  llmJudge?: LlmJudge;
  /**
   * The LLM judge's time budget in ms: past it, its rules are undecided and hold (fail-closed),
   * with a rationale that says the judge ran out of time. Default: no budget.
   */
  timeoutMs?: number;
  /**
   * Answers the `history.*` calls of conditions, as of the judged action (the engine's and
   * replay's: the store). Without it, a condition that calls `history` is violated (fail closed).
   */
  history?: HistorySource;
}

/**
 * Judges an action against its team's rules. Never throws and never passes by default:
 * - no rule set for the session's team, or an action type none of them declares → kill;
 * - each applicable rule with a condition is evaluated (false, an error or a non-boolean violates it);
 * - rules without a condition go to the LLM judge, or hold when there is none;
 * - any kill → kill; else any hold → hold; else pass. A declared type no rule applies to passes.
 * When a condition already kills, the LLM judge is not called: it could not change the verdict.
 * An unexpected internal error becomes a hold.
 */
export async function judgeAction(options: JudgeActionOptions): Promise<Verdict> {
  try {
    return await judge(options);
  } catch (error) {
    const reason = errorMessage(error);
    return refusal('hold', `the judge failed (${reason}); an operator decides`);
  }
}

async function judge(options: JudgeActionOptions): Promise<Verdict> {
  const { action, session } = options;
  const teamSets = options.rules.filter((set) => set.team === session.teamId);
  if (teamSets.length === 0) {
    const loaded = options.rules.map((set) => `"${set.team}"`).join(', ') || 'none';
    return refusal('kill', `no rules file for team "${session.teamId}" (loaded teams: ${loaded})`);
  }
  const declared = teamSets.flatMap((set) => set.actionTypes);
  if (!declared.includes(action.actionType)) {
    return refusal(
      'kill',
      `unknown action type "${action.actionType}": the rules of team "${session.teamId}" declare ${declared.map((type) => `"${type}"`).join(', ')}`,
    );
  }
  const relevant = teamSets
    .flatMap((set) => set.rules)
    .filter((rule) => rule.appliesTo.includes(action.actionType));
  const monitored = relevant.filter((rule) => rule.mode === 'monitor');
  const applicable = relevant.filter((rule) => rule.mode !== 'monitor');
  const verdict = await judgeEnforced(options, applicable, monitored);
  return monitored.length === 0 ? verdict : withShadow(verdict, monitored, options);
}

async function judgeEnforced(
  options: JudgeActionOptions,
  applicable: readonly Rule[],
  monitored: readonly Rule[],
): Promise<Verdict> {
  const { action, evidence, session } = options;
  if (applicable.length === 0) {
    const also = monitored.length === 0 ? '' : ' (only rules in mode: monitor, which have no effect)';
    return {
      kind: 'pass',
      citations: {
        ruleIds: [],
        evidenceIds: [],
        rationale: `no rule of team "${session.teamId}" applies to action type "${action.actionType}"${also}`,
      },
    };
  }
  const outcomes = await evaluateConditions(applicable, options);
  const alreadyKilled = [...outcomes.values()].some((outcome) => outcome.decision === 'kill');
  if (!alreadyKilled) {
    const withoutCondition = applicable.filter((rule) => rule.condition === undefined);
    const llmOutcomes = await judgeRulesWithLlm(
      withoutCondition,
      options.llmJudge,
      action,
      evidence,
      options.timeoutMs,
    );
    withoutCondition.forEach((rule, index) => {
      const outcome = llmOutcomes[index];
      if (outcome) outcomes.set(rule, outcome);
    });
  }
  // Outcomes in file order, so rationales read like the rules file.
  // A rule left without an outcome holds (fail closed), unless a kill already decided the verdict.
  const ordered = applicable.flatMap((rule) => {
    const outcome = outcomes.get(rule);
    if (outcome) return [outcome];
    return alreadyKilled ? [] : [undecided(rule, 'the rule was not evaluated', [])];
  });
  return combineRuleOutcomes(ordered, action.actionType);
}

/**
 * The outcomes of the rules that have a condition (each CEL condition evaluated on one activation).
 * Rules without a condition get none here.
 */
async function evaluateConditions(
  rules: readonly Rule[],
  options: JudgeActionOptions,
): Promise<Map<Rule, RuleOutcome>> {
  const { action, evidence, session } = options;
  const outcomes = new Map<Rule, RuleOutcome>();
  const evidenceIds = evidence.map((record) => record.id);
  let activation: Record<string, unknown> | undefined;
  let activationError = '';
  try {
    // One `history` for all the rules of this write: a query two rules make is asked once.
    activation = {
      ...buildCelActivation(action, evidence, session),
      history: new CelHistory(options.history),
    };
  } catch (error) {
    activationError = errorMessage(error);
  }
  const sizes = activation === undefined ? undefined : listSizesOf(activation, evidence.length);
  for (const rule of rules) {
    if (rule.condition === undefined) continue;
    const unreadable = `the action or evidence cannot be read (${activationError}); counted as violated`;
    outcomes.set(
      rule,
      activation === undefined
        ? violation(rule, unreadable, [])
        : await evaluateConditionRule(rule, rule.condition, activation, evidenceIds, sizes),
    );
  }
  return outcomes;
}

/**
 * `verdict` with what each monitored rule would have decided (`citations.shadow`). A monitored
 * rule never changes the verdict; one that cannot be evaluated is recorded as a hold, as an
 * enforced one would have been.
 */
async function withShadow(
  verdict: Verdict,
  monitored: readonly Rule[],
  options: JudgeActionOptions,
): Promise<Verdict> {
  let outcomes: Map<Rule, RuleOutcome>;
  try {
    outcomes = await evaluateConditions(monitored, options);
  } catch (error) {
    const reason = `the rule could not be evaluated (${errorMessage(error)})`;
    outcomes = new Map(monitored.map((rule) => [rule, undecided(rule, reason, [])]));
  }
  const shadow: ShadowOutcome[] = monitored.map((rule) => {
    const outcome = outcomes.get(rule) ?? undecided(rule, 'the rule was not evaluated', []);
    return {
      ruleId: rule.id,
      version: rule.version,
      decision: outcome.decision,
      rationale: outcome.rationale,
    };
  });
  return { ...verdict, citations: { ...verdict.citations, shadow } };
}

function refusal(kind: 'kill' | 'hold', rationale: string): Verdict {
  return { kind, citations: { ruleIds: [], evidenceIds: [], rationale } };
}

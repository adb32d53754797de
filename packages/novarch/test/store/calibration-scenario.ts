import { expect } from 'vitest';
import type { LlmJudge, NovarchDatabaseStore } from '../../src/index.js';
import { calibrateRules } from '../../src/rules/calibrate/calibrate-rules.js';
import { RULES_V1, recordReplayScenario, ruleSetOf } from './replay-scenario.js';

/** An LLM judge that finds TEAM-3 (close a ticket only when confirmed) violated. */
export const strictLlmJudge: LlmJudge = {
  async judge(request) {
    return request.rules.map((rule) => ({ ruleId: rule.id, violated: true, rationale: 'not confirmed' }));
  },
};

/**
 * The replay scenario with its holds decided: the 900 refund's hold (TEAM-2) approved, the closed
 * ticket's (TEAM-3) denied; then globex, another tenant of the team, with a hold approved too.
 */
export async function recordCalibrationScenario(store: NovarchDatabaseStore) {
  const recorded = await recordReplayScenario(store);
  const holdOf = async (actionId: string) => {
    const entry = (await store.audit()).find((candidate) => candidate.action.id === actionId);
    if (entry?.hold === undefined) throw new Error(`no hold on ${actionId}`);
    return entry.hold.id;
  };
  await store.decideHold(await holdOf(recorded.large.action.id), 'approved', 'ana', 'fine, a known customer');
  await store.decideHold(await holdOf(recorded.close.action.id), 'denied', 'ben', 'not confirmed');
  return recorded;
}

/** What every store gives for the scenario, one tenant's decisions only. */
export async function expectCalibration(store: NovarchDatabaseStore, smallActionId: string) {
  const report = await calibrateRules({
    store,
    ruleSet: ruleSetOf(RULES_V1),
    tenantId: 'acme',
    labels: [{ action: smallActionId, label: 'kill', by: 'cleo' }],
    llmJudge: strictLlmJudge,
  });
  expect(report).toMatchObject({
    team: 'cs-ops',
    tenantId: 'acme',
    labelled: 3,
    fromHolds: 2,
    fromLabels: 1,
    notRejudged: 0,
    reversedPasses: 1,
  });
  const byRule = Object.fromEntries(report.rules.map((rule) => [rule.ruleId, rule]));
  expect(byRule['TEAM-1']).toMatchObject({
    llm: false,
    judged: 2,
    confusion: { both_kill: 0, rule_kill_human_pass: 0, rule_pass_human_kill: 1, both_pass: 1 },
    needlessHolds: 0,
  });
  expect(byRule['TEAM-2']).toMatchObject({
    judged: 2,
    confusion: { both_kill: 0, rule_kill_human_pass: 1, rule_pass_human_kill: 1, both_pass: 0 },
    needlessHolds: 1,
  });
  expect(byRule['TEAM-2']?.kappa).toBeCloseTo(-1, 10);
  expect(byRule['TEAM-3']).toMatchObject({
    llm: true,
    judged: 1,
    confusion: { both_kill: 1, rule_kill_human_pass: 0, rule_pass_human_kill: 0, both_pass: 0 },
    kappa: null,
    needlessHolds: 0,
  });
  return report;
}

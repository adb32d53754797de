import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type LlmJudge,
  NOT_REJUDGED_LLM,
  type NovarchDatabaseStore,
  NovarchEngine,
  openSqliteStore,
  pushRules,
  RulesError,
  replayRules,
  rulesContentHash,
  storedRuleSource,
} from '../../../src/index.js';
import {
  RULES_V1,
  RULES_V2,
  recordGlobexRefund,
  recordReplayScenario,
  ruleSetOf,
} from '../../store/replay-scenario.js';
import { createTempStoreFiles } from '../../store/temp-store-file.js';

const files = createTempStoreFiles();
afterAll(() => files.cleanup());
let store: NovarchDatabaseStore;
beforeEach(async () => {
  store = await openSqliteStore(files.next());
});
afterEach(async () => {
  await store.close();
});

const scope = { tenantId: 'acme', teamId: 'cs-ops', agentId: 'cs-bot' };
const bigRefund = {
  actionType: 'issue_refund',
  toolName: 'issue_refund',
  input: {},
  context: { recordId: 'C1', summary: 'refund 900', amount: 900 },
};

describe('verdicts cite their rule set', () => {
  it('rules from a file: version null and the hash of the file text, kept by the store', async () => {
    const engine = new NovarchEngine({ store, rules: [ruleSetOf(RULES_V1)], holdWindowSeconds: 60 });
    const session = await engine.openSession(scope);
    const decision = await engine.decide(session, bigRefund);
    const reference = { team: 'cs-ops', version: null, contentHash: rulesContentHash(RULES_V1) };
    expect(decision.verdict.citations).toMatchObject({
      ruleIds: ['TEAM-1', 'TEAM-2'],
      ruleSets: [reference],
      rules: [
        { id: 'TEAM-1', version: 1, ruleSet: reference },
        { id: 'TEAM-2', version: 1, ruleSet: reference },
      ],
    });
    const [entry] = await store.audit();
    expect(entry?.verdict?.verdict).toEqual(decision.verdict);
  });

  it('pushed rules: each judgement uses and cites the latest version of the team', async () => {
    const engine = new NovarchEngine({ store, rules: storedRuleSource(store), holdWindowSeconds: 60 });
    const session = await engine.openSession(scope);
    const before = await engine.decide(session, bigRefund);
    expect(before.verdict).toMatchObject({ kind: 'kill' });
    expect(before.verdict.citations.rationale).toBe('no rules file for team "cs-ops" (loaded teams: none)');

    const first = await pushRules(store, { source: RULES_V1, name: 'rules.yaml', pushedBy: 'ana' });
    expect(first.ruleSet).toMatchObject({
      team: 'cs-ops',
      version: 1,
      contentHash: rulesContentHash(RULES_V1),
    });
    const v1 = await engine.decide(session, { ...bigRefund, context: { ...bigRefund.context, amount: 300 } });
    expect(v1.verdict.citations.ruleSets).toEqual([
      { team: 'cs-ops', version: 1, contentHash: rulesContentHash(RULES_V1) },
    ]);

    await pushRules(store, { source: RULES_V2, name: 'rules.yaml', pushedBy: 'ana' });
    const v2 = await engine.decide(session, { ...bigRefund, context: { ...bigRefund.context, amount: 300 } });
    expect(v2.verdict.citations.rules?.map((rule) => [rule.id, rule.version, rule.ruleSet.version])).toEqual([
      ['TEAM-1', 1, 2],
      ['TEAM-2', 2, 2],
    ]);
  });

  it('a stored rule set that does not load holds the write, saying why', async () => {
    await store.pushRuleSet({ team: 'cs-ops', content: 'team: cs-ops\nrules: nope\n', pushedBy: 'raw' });
    const engine = new NovarchEngine({ store, rules: storedRuleSource(store), holdWindowSeconds: 60 });
    const decision = await engine.decide(await engine.openSession(scope), bigRefund);
    expect(decision.verdict.kind).toBe('hold');
    expect(decision.verdict.citations.rationale).toMatch(
      /^the rules of team "cs-ops" could not be read \(\d problems? in rules file:\ncs-ops v1 \(stored\):\d+:\d+ {2}/,
    );
  });

  it('pushRules refuses an invalid file and a team other than the file’s, storing nothing', async () => {
    await expect(
      pushRules(store, { source: 'team: [', name: 'bad.yaml', pushedBy: 'ana' }),
    ).rejects.toBeInstanceOf(RulesError);
    await expect(
      pushRules(store, { source: RULES_V1, name: 'rules.yaml', team: 'billing', pushedBy: 'ana' }),
    ).rejects.toThrow(
      '1 problem in rules file:\nrules.yaml  team: is "cs-ops", but the rules are pushed for team "billing"\n    hint: push it for team "cs-ops", or change team: in the file to "billing"',
    );
    expect(await store.listRuleSets()).toEqual([]);
  });
});

describe('replayRules', () => {
  it("re-judges one tenant's decisions: a team shared by tenants needs tenantId", async () => {
    await recordReplayScenario(store);
    await recordGlobexRefund(store, bigRefund.context);
    const ruleSet = ruleSetOf(RULES_V2, 'rules-v2.yaml');
    await expect(replayRules({ store, ruleSet })).rejects.toThrow(
      "the sessions of team cs-ops belong to 2 tenants (acme, globex): pass --tenant TENANT to replay one tenant's decisions",
    );
    const acme = await replayRules({ store, ruleSet, tenantId: 'acme' });
    expect(acme).toMatchObject({ sessions: 2, judged: 5, skipped: 1 });
    const only = await replayRules({ store, ruleSet, tenantId: 'globex' });
    expect(only).toMatchObject({ sessions: 0, judged: 0, skipped: 1 });
  });

  it('lists the decisions that would change, with both verdicts, and the LLM ones it did not re-judge', async () => {
    const recorded = await recordReplayScenario(store);
    const report = await replayRules({ store, ruleSet: ruleSetOf(RULES_V2, 'rules-v2.yaml') });
    expect(report).toMatchObject({ team: 'cs-ops', sessions: 2, judged: 5, unchanged: 3, skipped: 1 });
    expect(report.changed.map((change) => change.entry.action.id)).toEqual([recorded.medium.action.id]);
    const [change] = report.changed;
    expect(change?.before.verdict).toMatchObject({
      kind: 'pass',
      citations: { ruleIds: ['TEAM-1', 'TEAM-2'] },
    });
    expect(change?.after).toMatchObject({
      kind: 'hold',
      citations: {
        ruleIds: ['TEAM-2'],
        ruleSets: [{ team: 'cs-ops', version: null, contentHash: rulesContentHash(RULES_V2) }],
        rules: [{ id: 'TEAM-2', version: 2 }],
      },
    });
    expect(change?.after.citations.rationale).toContain(
      'TEAM-2 v2 (hold): Refunds over 200 are held for a human.',
    );
    expect(report.notRejudged.map((decision) => decision.entry.action.id)).toEqual([
      recorded.close.action.id,
    ]);
    expect(report.notRejudged[0]?.after.citations.rationale).toContain(NOT_REJUDGED_LLM);
  });

  it('judges each action on the evidence recorded before it, and honours since', async () => {
    const recorded = await recordReplayScenario(store);
    // The unlooked refund's session has no lookup: still a kill under V2, so unchanged.
    const same = await replayRules({ store, ruleSet: ruleSetOf(RULES_V1) });
    expect(same.changed).toEqual([]);
    expect(same.unchanged).toBe(4);
    const late = await replayRules({
      store,
      ruleSet: ruleSetOf(RULES_V2),
      since: recorded.large.action.createdAt,
    });
    expect(late.judged).toBe(3);
    expect(late.changed).toEqual([]);
  });

  it("judges each action on the evidence stored before it, whatever the agent's clock said", async () => {
    const engine = new NovarchEngine({ store, rules: [ruleSetOf(RULES_V1)], holdWindowSeconds: 60 });
    const session = await engine.openSession(scope);
    const lookup = (customerId: string, at: string) =>
      store.recordEvidence({
        sessionId: session.id,
        toolName: 'lookup_customer',
        input: { customer_id: customerId },
        output: { ok: true },
        isError: false,
        startedAt: at,
        finishedAt: at,
      });
    const refund = (customerId: string) =>
      engine.decide(session, {
        actionType: 'issue_refund',
        toolName: 'issue_refund',
        input: { customer_id: customerId, amount: 50 },
        context: { recordId: customerId, summary: 'refund 50 EUR', amount: 50 },
      });
    // The agent's clock runs 10 s ahead: its lookup is stamped after the refund that followed it.
    await lookup('C1', new Date(Date.now() + 10_000).toISOString());
    const passed = await refund('C1');
    // A lookup stamped in the past, stored after the refund it would have excused.
    const killed = await refund('C2');
    await lookup('C2', new Date(Date.now() - 10_000).toISOString());
    expect([passed.verdict.kind, killed.verdict.kind]).toEqual(['pass', 'kill']);
    const report = await replayRules({ store, ruleSet: ruleSetOf(RULES_V1) });
    expect(report).toMatchObject({ judged: 2, unchanged: 2, changed: [] });
  });

  it('re-judges LLM rules with a judge when one is given', async () => {
    const recorded = await recordReplayScenario(store);
    const asked: string[] = [];
    const llmJudge: LlmJudge = {
      async judge(request) {
        asked.push(...request.rules.map((rule) => rule.id));
        return request.rules.map((rule) => ({
          ruleId: rule.id,
          violated: false,
          rationale: 'the customer confirmed',
        }));
      },
    };
    const report = await replayRules({ store, ruleSet: ruleSetOf(RULES_V2), llmJudge });
    expect(asked).toEqual(['TEAM-3']);
    expect(report.notRejudged).toEqual([]);
    expect(
      report.changed.map((change) => [change.entry.action.id, change.before.verdict.kind, change.after.kind]),
    ).toEqual([
      [recorded.medium.action.id, 'pass', 'hold'],
      [recorded.close.action.id, 'hold', 'pass'],
    ]);
  });
});

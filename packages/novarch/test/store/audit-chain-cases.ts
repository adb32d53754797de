import { describe, expect, it } from 'vitest';
import type { HoldRecord } from '../../src/index.js';
import {
  type ChainWorld,
  chainWorld,
  inFiveMinutes,
  problemsOf,
  type TamperableStore,
} from './chain-world.js';
import { recordRefund, scope } from './conformance-context.js';

type Decisions = Awaited<ReturnType<typeof recordDecisions>>;

/** Every kind of decision on the world's session and one team's rules, through the store. */
async function recordDecisions({ store, session, refund }: ChainWorld) {
  const first = await refund(100);
  const passed = await store.recordVerdict({
    actionId: first.id,
    sessionId: session.id,
    source: 'judge',
    verdict: { kind: 'pass', citations: { ruleIds: ['r1'], evidenceIds: [], rationale: 'small refund' } },
  });
  const second = await refund(900);
  const held = await store.recordVerdict({
    actionId: second.id,
    sessionId: session.id,
    source: 'judge',
    verdict: { kind: 'hold', citations: { ruleIds: ['big'], evidenceIds: [], rationale: 'big refund' } },
  });
  const hold = await store.createHold(second.id, session.id, inFiveMinutes());
  await store.decideHold(hold.id, 'approved', 'operator:ana', 'checked');
  await store.killSession(session.id, 'enough for today');
  await store.pushRuleSet({ team: 'support', content: 'rules: []\n', pushedBy: 'admin' });
  await store.pushRuleSet({ team: 'support', content: 'rules: [] # v2\n', pushedBy: 'admin' });
  return { first, second, passed, held, hold };
}

/** The audit chain's guarantees, run on each store with direct SQL edits of its database. */
export function describeAuditChainCases(name: string, open: () => Promise<TamperableStore>): void {
  describe(`audit chain: ${name}`, () => {
    const inWorld = chainWorld(open);
    /** A world with `recordDecisions` made. */
    const inDecidedWorld = (work: (world: ChainWorld & Decisions) => Promise<void>) =>
      inWorld(async (world) => work({ ...world, ...(await recordDecisions(world)) }));

    it('chains every verdict, hold, decision, kill and rule change; verify finds nothing wrong', () =>
      inDecidedWorld(async ({ store, session, passed, held, hold }) => {
        const reports = await store.verifyAuditChains();
        expect(reports.map((report) => [report.chain, report.links, report.problems])).toEqual([
          ['rules:support', 2, []],
          ['tenant:acme', 5, []],
        ]);
        const chain = await store.readAuditChain('tenant:acme');
        expect(chain.links.map((link) => [link.position, link.kind, link.recordId])).toEqual([
          [1, 'verdict', passed.id],
          [2, 'verdict', held.id],
          [3, 'hold', hold.id],
          [4, 'hold_decision', hold.id],
          [5, 'kill', session.id],
        ]);
        expect(chain.links[1]?.prevHash).toBe(chain.links[0]?.hash);
        expect(reports[1]?.head).toEqual({ chain: 'tenant:acme', position: 5, hash: chain.links[4]?.hash });
        // A second decision on a decided hold and a second kill change nothing: no link either.
        await store.decideHold(hold.id, 'denied', 'operator:bo');
        await store.killSession(session.id, 'again');
        expect((await store.verifyAuditChains({ tenantId: 'acme' }))[0]?.links).toBe(5);
      }));

    it('detects an edited verdict, an edited action input, an edited decision and edited rules', () =>
      inDecidedWorld(async ({ store, exec, first, passed, held, hold }) => {
        await exec(
          `update verdicts set citations_json = '{"ruleIds":[],"evidenceIds":[],"rationale":"fine"}' where id = '${held.id}'`,
        );
        await exec(`update actions set input_json = '{"amount":1}' where id = '${first.id}'`);
        await exec(`update holds set decided_by = 'operator:mallory' where id = '${hold.id}'`);
        await exec(`update rule_sets set content = 'rules: [evil]' where version = 1`);
        const reports = await store.verifyAuditChains();
        expect(problemsOf(reports)).toEqual([
          { kind: 'edited_record', recordId: 'support@1' },
          { kind: 'edited_record', recordId: passed.id },
          { kind: 'edited_record', recordId: held.id },
          { kind: 'edited_record', recordId: hold.id },
        ]);
        expect(reports[1]?.problems[1]?.message).toBe(
          `The verdict ${held.id} (link 2) was edited after it was recorded: its content does not match the chain.`,
        );
      }));

    it('detects a deleted verdict and a verdict inserted behind the store', () =>
      inDecidedWorld(async ({ store, exec, session, first, passed }) => {
        await exec(`delete from verdicts where id = '${passed.id}'`);
        await exec(
          `insert into verdicts (id, action_id, session_id, kind, citations_json, source, decided_at) values ('vrd_forged', '${first.id}', '${session.id}', 'pass', '{"ruleIds":[],"evidenceIds":[],"rationale":"x"}', 'judge', '2026-01-01T00:00:00.000Z')`,
        );
        const [report] = await store.verifyAuditChains({ tenantId: 'acme' });
        expect(report?.problems.map((problem) => problem.message)).toEqual([
          `The verdict ${passed.id} (link 1) is no longer in the store: deleted.`,
          "The verdict vrd_forged is in the store but in no link of the chain: inserted behind Novarch's back.",
        ]);
      }));

    it('detects reordered verdicts', () =>
      inDecidedWorld(async ({ exec, allowSeqEdits, passed, held, chainProblems }) => {
        await allowSeqEdits('verdicts');
        // A fresh store numbers them 1 and 2: swap them.
        await exec(`update verdicts set seq = -1 where id = '${passed.id}'`);
        await exec(`update verdicts set seq = 1 where id = '${held.id}'`);
        await exec(`update verdicts set seq = 2 where id = '${passed.id}'`);
        expect(await chainProblems()).toEqual([{ kind: 'reordered_record', recordId: held.id }]);
      }));

    it('detects a removed, a moved and a truncated link', () =>
      inDecidedWorld(async ({ store, exec }) => {
        await exec(`delete from audit_links where chain = 'tenant:acme' and position = 3`);
        await exec(`update audit_links set position = 100 where chain = 'rules:support' and position = 1`);
        await exec(`update audit_links set position = 1 where chain = 'rules:support' and position = 2`);
        await exec(`update audit_links set position = 2 where chain = 'rules:support' and position = 100`);
        const problems = problemsOf(await store.verifyAuditChains());
        expect(problems.map((problem) => problem.kind)).toEqual([
          'edited_link',
          'edited_link',
          'reordered_record',
          'head_mismatch',
          'missing_link',
          'broken_link',
          'unchained_record',
        ]);
        await exec(`delete from audit_links where chain = 'tenant:acme' and position = 5`);
        const [tenant] = await store.verifyAuditChains({ tenantId: 'acme' });
        expect(tenant?.problems.map((problem) => problem.kind)).toContain('head_mismatch');
      }));

    /** A hold that needs two approvals; ana approves it with an edit, bo as it is (edited). */
    const inApprovedOnceWorld = (
      work: (world: ChainWorld & { hold: HoldRecord; partial: HoldRecord }) => Promise<void>,
    ) =>
      inWorld(async (world) => {
        const { hold } = await world.holdRefund(900, { approvals: 2, approverGroups: [] });
        const edit = { input: { customerId: 'c-1', amount: 400, reasoning: 'customer asked' } };
        const partial = await world.store.decideHold(hold.id, 'approved', 'ana', 'less', edit);
        await work({ ...world, hold, partial });
      });

    it('chains each approval of a quorum, the partial one too, with the edited and the original input', () =>
      inApprovedOnceWorld(async ({ store, hold, partial, chainProblems }) => {
        expect(partial.status).toBe('pending');
        let chain = await store.readAuditChain('tenant:acme');
        expect(chain.links.map((link) => [link.kind, link.recordId])).toEqual([
          ['hold', hold.id],
          ['hold_approval', `${hold.id}#1`],
        ]);
        expect(chain.records[1]).toMatchObject({
          kind: 'hold_approval',
          holdId: hold.id,
          number: 1,
          approval: { operator: 'ana', rationale: 'less' },
          policy: '{"approvals":2,"approverGroups":[]}',
          edit: {
            originalInput: expect.stringContaining('"amount":900'),
            input: expect.stringContaining('"amount":400'),
            by: 'ana',
          },
        });
        const done = await store.decideHold(hold.id, 'approved', 'bo', 'ok', {
          input: { customerId: 'c-1', amount: 400, reasoning: 'customer asked' },
        });
        expect(done).toMatchObject({ status: 'approved', edit: { by: 'ana' } });
        chain = await store.readAuditChain('tenant:acme');
        expect(chain.links.map((link) => [link.kind, link.recordId])).toEqual([
          ['hold', hold.id],
          ['hold_approval', `${hold.id}#1`],
          ['hold_approval', `${hold.id}#2`],
          ['hold_decision', hold.id],
        ]);
        expect(chain.records[2]).not.toHaveProperty('edit');
        expect(await chainProblems()).toEqual([]);
      }));

    it('detects an edited approval, an edited input, a changed editor and a removed or added approval', () =>
      inApprovedOnceWorld(async ({ store, exec, hold, chainProblems }) => {
        await exec(
          `update holds set edited_input_json = '{"customerId":"c-1","amount":4000,"reasoning":"customer asked"}' where id = '${hold.id}'`,
        );
        let [report] = await store.verifyAuditChains({ tenantId: 'acme' });
        expect(report?.problems.map((problem) => problem.message)).toEqual([
          `The hold approval ${hold.id}#1 (link 2) was edited after it was recorded: its content does not match the chain.`,
        ]);
        await exec(
          `update holds set edited_input_json = '{"customerId":"c-1","amount":400,"reasoning":"customer asked"}', edited_by = 'mallory' where id = '${hold.id}'`,
        );
        expect(await chainProblems()).toEqual([{ kind: 'edited_record', recordId: `${hold.id}#1` }]);
        await exec(`update holds set edited_by = 'ana' where id = '${hold.id}'`);
        expect(await chainProblems()).toEqual([]);
        // Who approved: renamed, then a second approval added by hand, then every approval removed.
        await exec(
          `update holds set approvals_json = replace(approvals_json, '"ana"', '"mallory"') where id = '${hold.id}'`,
        );
        expect(await chainProblems()).toEqual([{ kind: 'edited_record', recordId: `${hold.id}#1` }]);
        await exec(
          `update holds set approvals_json = replace(approvals_json, '"mallory"', '"ana"') where id = '${hold.id}'`,
        );
        await exec(
          `update holds set approvals_json = replace(approvals_json, '}]', '},{"operator":"bo","at":"2026-01-01T00:00:00.000Z"}]') where id = '${hold.id}'`,
        );
        [report] = await store.verifyAuditChains({ tenantId: 'acme' });
        expect(report?.problems.map((problem) => problem.message)).toEqual([
          `The hold approval ${hold.id}#2 is in the store but in no link of the chain: inserted behind Novarch's back.`,
        ]);
        await exec(`update holds set approvals_json = null where id = '${hold.id}'`);
        [report] = await store.verifyAuditChains({ tenantId: 'acme' });
        expect(report?.problems.map((problem) => problem.message)).toEqual([
          `The hold approval ${hold.id}#1 (link 2) is no longer in the store: deleted.`,
          `The hold ${hold.id} has an edited input by ana but no approval whose link covers it: inserted behind Novarch's back.`,
        ]);
      }));

    it('detects an edited input written on a hold no operator approved', () =>
      inWorld(async ({ exec, holdRefund, chainProblems }) => {
        const { hold } = await holdRefund(900);
        await exec(
          `update holds set edited_input_json = '{"amount":9000}', edited_by = 'ana' where id = '${hold.id}'`,
        );
        expect(await chainProblems()).toEqual([{ kind: 'unchained_record', recordId: hold.id }]);
      }));

    it("decisions racing on one tenant (many at once) keep one chain, in the verdicts' order", () =>
      inWorld(async ({ store, session }) => {
        const sessions = [
          session,
          ...(await Promise.all(Array.from({ length: 3 }, () => store.createSession(scope(), 300)))),
        ];
        await Promise.all(
          sessions.flatMap((session) =>
            Array.from({ length: 5 }, async (_, index) => {
              const action = await recordRefund(store, session, index);
              await store.recordVerdict({
                actionId: action.id,
                sessionId: session.id,
                source: 'judge',
                verdict: { kind: 'pass', citations: { ruleIds: [], evidenceIds: [], rationale: 'ok' } },
              });
            }),
          ),
        );
        expect(await store.verifyAuditChains()).toEqual([
          { chain: 'tenant:acme', links: 20, head: expect.objectContaining({ position: 20 }), problems: [] },
        ]);
      }));
  });
}

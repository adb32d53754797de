import { describe, expect, it } from 'vitest';
import { tenantChain } from '../../src/model/audit-chain.js';
import { buildAuditExport, verifyAuditExport } from '../../src/operations/audit-export.js';
import { appendAuditLink, lockAuditChain } from '../../src/store/audit-chain-queries.js';
import { legacyHoldMaterial } from '../../src/store/audit-record-material.js';
import { chainWorld, inFiveMinutes, type TamperableStore } from './chain-world.js';

/** A hold's link covers the approval policy it is decided under (`format: 2` of its material). */
export function describeHoldPolicyChainCases(name: string, open: () => Promise<TamperableStore>): void {
  describe(`audit chain, hold policies: ${name}`, () => {
    const inWorld = chainWorld(open);

    it("detects an edit of a hold's policy: a quorum lowered, and a policy added to a hold without one", () =>
      inWorld(async ({ store, exec, holdRefund, chainProblems }) => {
        const { hold: quorum } = await holdRefund(900, {
          approvals: 2,
          approverGroups: [{ ruleId: 'big', groups: ['finance'] }],
        });
        const { hold: plain } = await holdRefund(800);
        const chain = await store.readAuditChain('tenant:acme');
        expect(chain.records[0]).toMatchObject({
          kind: 'hold',
          format: 2,
          policy: '{"approvals":2,"approverGroups":[{"ruleId":"big","groups":["finance"]}]}',
        });
        expect(chain.records[1]).toMatchObject({ kind: 'hold', format: 2, policy: null });
        expect(await chainProblems()).toEqual([]);
        await exec(
          `update holds set policy_json = '{"approvals":1,"approverGroups":[]}' where id = '${quorum.id}'`,
        );
        await exec(
          `update holds set policy_json = '{"approvals":1,"approverGroups":[{"ruleId":"big","groups":["mallory"]}]}' where id = '${plain.id}'`,
        );
        const [report] = await store.verifyAuditChains({ tenantId: 'acme' });
        expect(report?.problems.map((problem) => problem.message)).toEqual([
          `The hold ${quorum.id} (link 1) was edited after it was recorded: its content does not match the chain.`,
          `The hold ${plain.id} (link 2) was edited after it was recorded: its content does not match the chain.`,
        ]);
      }));

    it('a hold chained before links covered the policy still verifies, in the store and in an export', () =>
      inWorld(async ({ store, exec, transaction, session, refund, holdRefund, chainProblems }) => {
        const action = await refund(900);
        // As Novarch chained a hold before `format: 2`: the same row, its material without the policy.
        const holdId = await transaction(async (db) => {
          const row = {
            id: 'hold_old',
            schema_version: 1,
            action_id: action.id,
            session_id: session.id,
            status: 'pending',
            created_at: new Date().toISOString(),
            deadline: inFiveMinutes().toISOString(),
            policy_json: '{"approvals":2,"approverGroups":[]}',
          };
          const chain = tenantChain('acme');
          await lockAuditChain(db, chain);
          await db.insertInto('holds').values(row).execute();
          await appendAuditLink(db, chain, {
            kind: 'hold',
            recordId: row.id,
            material: legacyHoldMaterial(row),
          });
          return row.id;
        });
        const { hold: newer } = await holdRefund(700, { approvals: 3, approverGroups: [] });
        expect(await chainProblems()).toEqual([]);
        const chain = await store.readAuditChain('tenant:acme');
        expect(chain.records[0]).not.toHaveProperty('policy');
        expect(chain.records[1]).toMatchObject({ format: 2, policy: '{"approvals":3,"approverGroups":[]}' });
        const exported = await buildAuditExport(store, { tenantId: 'acme' }, { now: new Date() });
        expect(verifyAuditExport(JSON.stringify(exported), 'export.json').intact).toBe(true);
        // The old link still covers what it always did.
        await exec(`update holds set deadline = '2099-01-01T00:00:00.000Z' where id = '${holdId}'`);
        expect(await chainProblems()).toEqual([{ kind: 'edited_record', recordId: holdId }]);
        // A newer hold's policy edit cannot pass as an old-format link.
        await exec(`update holds set policy_json = null where id = '${newer.id}'`);
        expect(await chainProblems()).toEqual([
          { kind: 'edited_record', recordId: holdId },
          { kind: 'edited_record', recordId: newer.id },
        ]);
      }));
  });
}

import { describe, expect } from 'vitest';
import { rulesContentHash } from '../../src/index.js';
import { type ConformanceContext, ISO_TIMESTAMP } from './conformance-context.js';

const V1 = 'team: cs-ops\naction_types: [refund]\nrules: []\n';
const V2 = 'team: cs-ops\naction_types: [refund, close]\nrules: []\n';

/** Versioned rule sets: push, read, list, identical pushes, racing pushes. */
export function describeRuleSetCases({ store, check }: ConformanceContext): void {
  describe('rule sets', () => {
    check(
      'pushRuleSet numbers a team’s versions from 1; getRuleSet reads the latest or one version',
      async () => {
        const first = await store().pushRuleSet({ team: 'cs-ops', content: V1, pushedBy: 'alice' });
        expect(first).toEqual({
          created: true,
          ruleSet: {
            team: 'cs-ops',
            version: 1,
            content: V1,
            contentHash: rulesContentHash(V1),
            pushedAt: expect.stringMatching(ISO_TIMESTAMP),
            pushedBy: 'alice',
            pushedByOsUser: expect.any(String),
          },
        });
        const second = await store().pushRuleSet({ team: 'cs-ops', content: V2, pushedBy: 'bob' });
        expect(second.ruleSet).toMatchObject({
          version: 2,
          contentHash: rulesContentHash(V2),
          pushedBy: 'bob',
        });
        const other = await store().pushRuleSet({ team: 'billing', content: V1, pushedBy: 'alice' });
        expect(other.ruleSet.version).toBe(1);
        expect(await store().getRuleSet('cs-ops')).toEqual(second.ruleSet);
        expect(await store().getRuleSet('cs-ops', 1)).toEqual(first.ruleSet);
        expect(await store().getRuleSet('cs-ops', 3)).toBeUndefined();
        expect(await store().getRuleSet('nobody')).toBeUndefined();
      },
    );

    check('the content is stored canonically: CRLF and a BOM do not make a new version', async () => {
      await store().pushRuleSet({ team: 'cs-ops', content: V1, pushedBy: 'alice' });
      const again = await store().pushRuleSet({
        team: 'cs-ops',
        content: `\uFEFF${V1.replaceAll('\n', '\r\n')}`,
        pushedBy: 'bob',
      });
      expect(again.created).toBe(false);
      expect(again.ruleSet).toMatchObject({ version: 1, pushedBy: 'alice', content: V1 });
      // Back to an older content is a new version (the latest differs).
      await store().pushRuleSet({ team: 'cs-ops', content: V2, pushedBy: 'alice' });
      expect(
        (await store().pushRuleSet({ team: 'cs-ops', content: V1, pushedBy: 'alice' })).ruleSet.version,
      ).toBe(3);
    });

    check('listRuleSets lists versions by team then version, without content, filtered by team', async () => {
      await store().pushRuleSet({ team: 'zeta', content: V1, pushedBy: 'a' });
      await store().pushRuleSet({ team: 'Alpha', content: V1, pushedBy: 'a' });
      await store().pushRuleSet({ team: 'zeta', content: V2, pushedBy: 'b' });
      const listed = await store().listRuleSets();
      expect(listed.map((set) => [set.team, set.version])).toEqual([
        ['Alpha', 1],
        ['zeta', 1],
        ['zeta', 2],
      ]);
      expect(listed[0]).not.toHaveProperty('content');
      expect((await store().listRuleSets({ team: 'zeta' })).map((set) => set.version)).toEqual([1, 2]);
      expect(await store().listRuleSets({ team: 'none' })).toEqual([]);
    });

    check('racing pushes of different content get distinct versions; none is lost', async () => {
      const contents = Array.from({ length: 6 }, (_, index) => `${V1}# change ${index}\n`);
      const results = await Promise.all(
        contents.map((content) => store().pushRuleSet({ team: 'cs-ops', content, pushedBy: 'racer' })),
      );
      expect(results.map((result) => result.ruleSet.version).sort()).toEqual([1, 2, 3, 4, 5, 6]);
      expect((await store().listRuleSets({ team: 'cs-ops' })).map((set) => set.contentHash).sort()).toEqual(
        contents.map((content) => rulesContentHash(content)).sort(),
      );
    });

    check('pushRuleSet refuses a blank team or pusher; getRuleSet a bad version', async () => {
      await expect(store().pushRuleSet({ team: ' ', content: V1, pushedBy: 'a' })).rejects.toThrow(
        'A rule set\'s team must be a non-empty name without surrounding spaces; got " ".',
      );
      await expect(store().pushRuleSet({ team: 'x', content: V1, pushedBy: '' })).rejects.toThrow(
        'A rule set push needs who pushed it (pushedBy).',
      );
      await expect(store().getRuleSet('x', 0)).rejects.toThrow(
        'A rule set version is a whole number ≥ 1; got 0.',
      );
      expect(await store().listRuleSets()).toEqual([]);
    });
  });

  describe('audit by team and time', () => {
    check('audit filters by team, since and until', async () => {
      const support = await store().createSession({ tenantId: 't', teamId: 'support', agentId: 'a' }, 60);
      const billing = await store().createSession({ tenantId: 't', teamId: 'billing', agentId: 'a' }, 60);
      const record = (sessionId: string) =>
        store().recordAction({
          sessionId,
          actionType: 'refund',
          toolName: 'refund',
          input: {},
          context: { recordId: 'r', summary: 's' },
        });
      const early = await record(support.id);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const middle = new Date().toISOString();
      const late = await record(support.id);
      const other = await record(billing.id);
      const ids = async (filter: Parameters<ReturnType<typeof store>['audit']>[0]) =>
        (await store().audit(filter)).map((entry) => entry.action.id);
      expect(await ids({ teamId: 'support' })).toEqual([early.id, late.id]);
      expect(await ids({ since: middle })).toEqual([late.id, other.id]);
      expect(await ids({ teamId: 'support', until: middle })).toEqual([early.id]);
      await expect(store().audit({ since: '2026-05-01' })).rejects.toThrow(
        'Audit since must be an ISO-8601 UTC time as Date.toISOString() writes it (e.g. 2026-05-01T00:00:00.000Z); got "2026-05-01".',
      );
    });
  });
}

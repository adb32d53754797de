import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type NovarchDatabaseStore, openSqliteStore, pushRules } from '../../../src/index.js';
import { ServerRules, tenantRuleSets } from '../../../src/server/server-rules.js';
import { RULES_V1 } from '../../store/replay-scenario.js';
import { createTempStoreFiles } from '../../store/temp-store-file.js';

// Issue 24: a session of team `globex/cs-ops` (of tenant acme) was held with a rationale quoting
// globex's rules: the deployment level read the store key `globex/cs-ops` as a plain team.

const files = createTempStoreFiles();
afterAll(() => files.cleanup());
let store: NovarchDatabaseStore;
beforeEach(async () => {
  store = await openSqliteStore(files.next());
});
afterEach(() => store.close());

describe("ServerRules never lends one tenant's rules to another", () => {
  it('a team named TENANT/TEAM gets no rules, not that tenant’s', async () => {
    await pushRules(tenantRuleSets(store, 'globex'), {
      source: RULES_V1,
      name: 'rules.yaml',
      team: 'cs-ops',
      pushedBy: 'gus',
    });
    const rules = new ServerRules(store, []);
    expect(await rules.forTenant('acme').rulesFor('globex/cs-ops')).toEqual([]);
    expect((await rules.forTenant('globex').rulesFor('cs-ops')).map((set) => set.team)).toEqual(['cs-ops']);
    expect(await rules.forTenant('acme').rulesFor('cs-ops')).toEqual([]);
  });
});

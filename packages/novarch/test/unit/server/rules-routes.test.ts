import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { rulesContentHash } from '../../../src/model/rules-content-hash.js';
import { pushRules } from '../../../src/rules/stored-rules.js';
import { DecisionSchema, SessionRecordSchema } from '../../../src/wire/record-schemas.js';
import { RuleSetDiffSchema, RuleSetSummarySchema } from '../../../src/wire/rules-schemas.js';
import { createServerWorld, lookupEvidence, refundProposal, type ServerWorld } from './server-fixture.js';

// The rules routes: an admin pushes a tenant's team rules as YAML and reads them back; the
// server's engine judges that team's writes by the latest version, and its verdicts cite it.

/** A rules file for team cs-ops holding refunds over `limit` (rule PUSH-1 at `ruleVersion`). */
function rulesYaml(limit: number, ruleVersion = 1, team = 'cs-ops'): string {
  return [
    `team: ${team}`,
    'action_types: [issue_refund]',
    'rules:',
    '  - id: PUSH-1',
    `    version: ${ruleVersion}`,
    `    description: Refunds over ${limit} are held.`,
    '    applies_to: [issue_refund]',
    '    on_violation: hold',
    `    condition: action.context.amount <= ${limit}`,
    '',
  ].join('\n');
}

let world: ServerWorld;
let admin: string;
let globexAdmin: string;
let operator: string;
let key: string;

function push(credential: string | undefined, path: string, yaml: string): Promise<Response> {
  return Promise.resolve(
    world.app.request(path, {
      method: 'POST',
      headers: {
        'content-type': 'application/yaml',
        ...(credential === undefined ? {} : { authorization: `Bearer ${credential}` }),
      },
      body: yaml,
    }),
  );
}

async function get(credential: string | undefined, path: string) {
  const response = await world.call('GET', path, credential);
  return { status: response.status, body: await response.json() };
}

/** Opens a cs-ops session of `agentKey`'s tenant, records a lookup and proposes a refund of `amount`. */
async function refund(agentKey: string, amount: number) {
  const session = SessionRecordSchema.parse(
    await (
      await world.call('POST', '/v1/sessions', agentKey, { teamId: 'cs-ops', agentId: 'cs-bot' })
    ).json(),
  );
  await world.call('POST', `/v1/sessions/${session.id}/evidence`, agentKey, lookupEvidence('C1'));
  const response = await world.call(
    'POST',
    `/v1/sessions/${session.id}/actions`,
    agentKey,
    refundProposal('C1', amount),
  );
  expect(response.status).toBe(200);
  return DecisionSchema.parse(await response.json()).verdict;
}

beforeEach(async () => {
  world = await createServerWorld();
  admin = await world.operatorToken('root', [{ tenantId: 'acme' }], 'admin');
  globexAdmin = await world.operatorToken('gia', [{ tenantId: 'globex' }], 'admin');
  operator = await world.operatorToken('ana', [{ tenantId: 'acme' }]);
  key = await world.agentKey('acme');
});
afterEach(() => world.close());

describe('POST /v1/rules/{tenantId}/{teamId}', () => {
  it('stores the file as the next version; the same content again stores nothing', async () => {
    const first = await push(admin, '/v1/rules/acme/cs-ops', rulesYaml(500));
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({
      created: true,
      ruleSet: {
        tenantId: 'acme',
        team: 'cs-ops',
        version: 1,
        contentHash: rulesContentHash(rulesYaml(500)),
        pushedAt: expect.any(String),
        pushedBy: 'root',
      },
    });
    const again = await (await push(admin, '/v1/rules/acme/cs-ops', rulesYaml(500))).json();
    expect(again).toMatchObject({ created: false, ruleSet: { version: 1 } });
    const second = await (await push(admin, '/v1/rules/acme/cs-ops', rulesYaml(800))).json();
    expect(second).toMatchObject({ created: true, ruleSet: { version: 2 } });
    // Stored under the tenant: another tenant's team of the same name has none.
    expect((await world.stores.store.listRuleSets()).map((set) => set.team)).toEqual([
      'acme/cs-ops',
      'acme/cs-ops',
    ]);
  });

  it('refuses bad YAML as problem+json with the line and column of each problem', async () => {
    const response = await push(admin, '/v1/rules/acme/cs-ops', 'team: cs-ops\nrules: [\n');
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toEqual({
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail:
        '1 problem in rules file:\nbody:3:1  invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]\n    hint: check the indentation, quotes and brackets on this line and the one before it',
      issues: [
        {
          path: 'body',
          line: 3,
          column: 1,
          message:
            'invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]',
          hint: 'check the indentation, quotes and brackets on this line and the one before it',
        },
      ],
    });
    expect(await world.stores.store.listRuleSets()).toEqual([]);
  });

  it('refuses a rules file with a bad field, with its line and column', async () => {
    const response = await push(
      admin,
      '/v1/rules/acme/cs-ops',
      rulesYaml(500).replace('on_violation: hold', 'on_violation: maybe'),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail:
        '1 problem in rules file:\nbody:8:19  rules[0].on_violation: expected one of "kill", "hold"; got "maybe"',
      issues: [
        {
          path: 'body.rules[0].on_violation',
          line: 8,
          column: 19,
          message: 'expected one of "kill", "hold"; got "maybe"',
        },
      ],
    });
  });

  it("refuses a file of another team than the path's", async () => {
    const response = await push(admin, '/v1/rules/acme/cs-ops', rulesYaml(500, 1, 'billing'));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      detail:
        '1 problem in rules file:\nbody  team: is "billing", but the rules are pushed for team "cs-ops"\n    hint: push it for team "billing", or change team: in the file to "cs-ops"',
    });
  });

  it('refuses an empty body', async () => {
    const response = await push(admin, '/v1/rules/acme/cs-ops', '  \n');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      detail: "body: empty: send the rules file's YAML text (Content-Type: application/yaml)",
    });
  });

  it('refuses a team name that is not one', async () => {
    const response = await push(admin, '/v1/rules/acme/cs%20ops', rulesYaml(500));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      detail: 'path.teamId: expected a name of letters, digits, . _ - (at most 64)',
    });
  });

  it('is for admins only: 401 without a credential, 403 for an operator or an agent key', async () => {
    const anonymous = await push(undefined, '/v1/rules/acme/cs-ops', rulesYaml(500));
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({
      detail:
        'no credential: send "Authorization: Bearer <key>" with an agent key (nva_…, `novarch keys create`) or an operator token (nvo_…, `novarch operators create`)',
    });
    for (const credential of [operator, key]) {
      const refused = await push(credential, '/v1/rules/acme/cs-ops', rulesYaml(500));
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({
        detail: 'only an admin token may manage agent keys, operator tokens and rules',
      });
    }
    expect(await world.stores.store.listRuleSets()).toEqual([]);
  });

  it("answers 404 for another tenant's team, as for one that does not exist", async () => {
    const response = await push(globexAdmin, '/v1/rules/acme/cs-ops', rulesYaml(500));
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      detail: 'no team "cs-ops" of tenant "acme" is visible to this credential',
    });
    const teamAdmin = await world.operatorToken('tia', [{ tenantId: 'acme', teamId: 'billing' }], 'admin');
    expect((await push(teamAdmin, '/v1/rules/acme/cs-ops', rulesYaml(500))).status).toBe(404);
    expect((await push(teamAdmin, '/v1/rules/acme/billing', rulesYaml(500, 1, 'billing'))).status).toBe(200);
    expect(await world.stores.store.listRuleSets({ team: 'acme/cs-ops' })).toEqual([]);
  });
});

describe('GET /v1/rules, /versions/{version}, /diff', () => {
  beforeEach(async () => {
    expect((await push(admin, '/v1/rules/acme/cs-ops', rulesYaml(500))).status).toBe(200);
    expect((await push(admin, '/v1/rules/acme/cs-ops', rulesYaml(800, 2))).status).toBe(200);
    expect((await push(globexAdmin, '/v1/rules/globex/cs-ops', rulesYaml(100))).status).toBe(200);
  });

  it("lists the versions within the admin's grants", async () => {
    const listed = await get(admin, '/v1/rules');
    expect(listed.status).toBe(200);
    expect(
      z
        .array(RuleSetSummarySchema)
        .parse(listed.body)
        .map((set) => `${set.tenantId} v${set.version}`),
    ).toEqual(['acme v1', 'acme v2']);
    const root = await world.operatorToken('all', [{ tenantId: '*' }], 'admin');
    expect((await get(root, '/v1/rules?tenantId=globex')).body).toMatchObject([
      { tenantId: 'globex', team: 'cs-ops', version: 1, pushedBy: 'gia' },
    ]);
    expect((await get(root, '/v1/rules?teamId=billing')).body).toEqual([]);
    expect((await get(operator, '/v1/rules')).status).toBe(403);
    expect((await get(undefined, '/v1/rules')).status).toBe(401);
  });

  it('shows a version, or the latest, with its text', async () => {
    const shown = await get(admin, '/v1/rules/acme/cs-ops/versions/1');
    expect(shown).toEqual({
      status: 200,
      body: {
        tenantId: 'acme',
        team: 'cs-ops',
        version: 1,
        contentHash: rulesContentHash(rulesYaml(500)),
        pushedAt: expect.any(String),
        pushedBy: 'root',
        content: rulesYaml(500),
      },
    });
    expect((await get(admin, '/v1/rules/acme/cs-ops/versions/latest')).body).toMatchObject({
      version: 2,
      content: rulesYaml(800, 2),
    });
    expect(await get(admin, '/v1/rules/acme/cs-ops/versions/7')).toMatchObject({
      status: 404,
      body: { detail: 'team "cs-ops" of tenant "acme" has no version 7: its versions are v1, v2' },
    });
    expect(await get(admin, '/v1/rules/acme/billing/versions/latest')).toMatchObject({
      status: 404,
      body: {
        detail:
          'team "billing" of tenant "acme" has no rules pushed to this server: push a rules file first (novarch rules push FILE --server URL --tenant acme)',
      },
    });
    expect(await get(admin, '/v1/rules/acme/cs-ops/versions/x')).toMatchObject({
      status: 400,
      body: { detail: 'path.version: expected a version number such as 3 or v3, or latest' },
    });
    expect(await get(globexAdmin, '/v1/rules/acme/cs-ops/versions/1')).toMatchObject({
      status: 404,
      body: { detail: 'no team "cs-ops" of tenant "acme" is visible to this credential' },
    });
    expect((await get(operator, '/v1/rules/acme/cs-ops/versions/1')).status).toBe(403);
    expect((await get(undefined, '/v1/rules/acme/cs-ops/versions/1')).status).toBe(401);
  });

  it('diffs two versions', async () => {
    const answer = await get(admin, '/v1/rules/acme/cs-ops/diff?from=1&to=v2');
    expect(answer.status).toBe(200);
    const diffed = { body: RuleSetDiffSchema.parse(answer.body) };
    expect(diffed.body.from).toMatchObject({ version: 1, content: rulesYaml(500) });
    expect(diffed.body.to).toMatchObject({ version: 2, content: rulesYaml(800, 2) });
    expect(diffed.body.diff).toContain('-    version: 1\n');
    expect(diffed.body.diff).toContain('+    version: 2\n');
    expect(diffed.body.diff).toContain('+    condition: action.context.amount <= 800\n');
    expect(await get(admin, '/v1/rules/acme/cs-ops/diff?from=1')).toMatchObject({
      status: 400,
      body: { detail: 'query.to: missing: give the two versions to compare, e.g. ?from=2&to=3' },
    });
    expect((await get(globexAdmin, '/v1/rules/acme/cs-ops/diff?from=1&to=2')).status).toBe(404);
    expect((await get(operator, '/v1/rules/acme/cs-ops/diff?from=1&to=2')).status).toBe(403);
    expect((await get(undefined, '/v1/rules/acme/cs-ops/diff?from=1&to=2')).status).toBe(401);
  });
});

describe("the server's engine judges by the pushed rules", () => {
  it('cites rule id, rule-set version and content hash: v1, then v2 after a push', async () => {
    // Before any push: the rules file of novarch.yaml (TEAM-2 holds over 500; no version).
    const fromFile = await refund(key, 900);
    expect(fromFile).toMatchObject({ kind: 'hold', citations: { ruleIds: ['TEAM-2'] } });
    expect(fromFile.citations.ruleSets).toEqual([
      { team: 'cs-ops', version: null, contentHash: expect.stringMatching(/^[0-9a-f]{64}$/) },
    ]);

    await push(admin, '/v1/rules/acme/cs-ops', rulesYaml(500));
    const v1 = { team: 'cs-ops', version: 1, contentHash: rulesContentHash(rulesYaml(500)) };
    const first = await refund(key, 900);
    expect(first.kind).toBe('hold');
    expect(first.citations).toMatchObject({
      ruleIds: ['PUSH-1'],
      ruleSets: [v1],
      rules: [{ id: 'PUSH-1', version: 1, ruleSet: v1 }],
    });
    // The file's TEAM-1 (a refund needs a lookup) no longer applies: the push replaced the file.
    expect((await refund(key, 100)).kind).toBe('pass');

    await push(admin, '/v1/rules/acme/cs-ops', rulesYaml(800, 2));
    const v2 = { team: 'cs-ops', version: 2, contentHash: rulesContentHash(rulesYaml(800, 2)) };
    const second = await refund(key, 900);
    expect(second.citations).toMatchObject({
      ruleIds: ['PUSH-1'],
      ruleSets: [v2],
      rules: [{ id: 'PUSH-1', version: 2, ruleSet: v2 }],
    });
    const passed = await refund(key, 700);
    expect(passed).toMatchObject({ kind: 'pass', citations: { ruleSets: [v2] } });
  });

  it("keeps tenants apart: another tenant's team of the same name still uses the files", async () => {
    await push(admin, '/v1/rules/acme/cs-ops', rulesYaml(100));
    const globexKey = await world.agentKey('globex');
    const verdict = await refund(globexKey, 900);
    expect(verdict.citations).toMatchObject({ ruleIds: ['TEAM-2'], ruleSets: [{ version: null }] });
  });

  it("uses rules pushed to the store without a tenant when the tenant's team has none pushed", async () => {
    await pushRules(world.stores.store, { source: rulesYaml(300), name: 'deploy.yaml', pushedBy: 'ops' });
    const deployment = { team: 'cs-ops', version: 1, contentHash: rulesContentHash(rulesYaml(300)) };
    expect((await refund(key, 400)).citations).toMatchObject({ ruleIds: ['PUSH-1'], ruleSets: [deployment] });
    await push(admin, '/v1/rules/acme/cs-ops', rulesYaml(500));
    expect(await refund(key, 400)).toMatchObject({ kind: 'pass', citations: { ruleSets: [{ version: 1 }] } });
    expect((await refund(key, 400)).citations.ruleSets?.[0]?.contentHash).toBe(
      rulesContentHash(rulesYaml(500)),
    );
  });
});

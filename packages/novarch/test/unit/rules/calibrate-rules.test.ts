import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type NovarchDatabaseStore, openSqliteStore } from '../../../src/index.js';
import { calibrateRules } from '../../../src/rules/calibrate/calibrate-rules.js';
import { collectLabels } from '../../../src/rules/calibrate/rule-labels.js';
import { expectCalibration, recordCalibrationScenario } from '../../store/calibration-scenario.js';
import { RULES_V1, recordGlobexRefund, ruleSetOf } from '../../store/replay-scenario.js';
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

describe('novarch rules calibrate (library, SQLite)', () => {
  it('measures each rule against decided holds and labels: confusion, kappa, needless holds, reversed passes', async () => {
    const recorded = await recordCalibrationScenario(store);
    await expectCalibration(store, recorded.small.action.id);
  });

  it("is tenant-scoped: a team shared by tenants needs one, and another tenant's holds never count", async () => {
    const recorded = await recordCalibrationScenario(store);
    await recordGlobexRefund(store, { recordId: 'G1', summary: 'g', amount: 10 });
    await expect(calibrateRules({ store, ruleSet: ruleSetOf(RULES_V1) })).rejects.toThrow(
      "the sessions of team cs-ops belong to 2 tenants (acme, globex): pass --tenant TENANT to calibrate on one tenant's decisions",
    );
    const globexOnly = await calibrateRules({
      store,
      ruleSet: ruleSetOf(RULES_V1),
      tenantId: 'globex',
      labels: [{ action: recorded.small.action.id, label: 'kill' }],
    });
    expect(globexOnly).toMatchObject({ labelled: 0, fromHolds: 0, fromLabels: 0 });
    await expectCalibration(store, recorded.small.action.id);
  });

  it('counts actions of LLM rules as not re-judged without an LLM judge', async () => {
    await recordCalibrationScenario(store);
    const report = await calibrateRules({ store, ruleSet: ruleSetOf(RULES_V1), tenantId: 'acme' });
    expect(report).toMatchObject({ labelled: 2, notRejudged: 1 });
  });

  it("lets a human's label win over the hold decision of the same action", async () => {
    const recorded = await recordCalibrationScenario(store);
    const entries = await store.audit();
    const labels = collectLabels(entries, [{ action: recorded.large.action.id, label: 'kill', by: 'dan' }]);
    expect(labels.get(recorded.large.action.id)).toEqual({
      actionId: recorded.large.action.id,
      label: 'kill',
      source: 'label',
      by: 'dan',
    });
    expect(labels.get(recorded.close.action.id)).toMatchObject({ label: 'kill', source: 'hold', by: 'ben' });
  });
});

describe('labels files of novarch rules label', () => {
  it('reads nothing from a missing file and refuses a bad entry at its line', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { readLabelsFile, appendLabelEntry } = await import(
      '../../../src/rules/calibrate/rule-labels-file.js'
    );
    const path = await import('node:path');
    const os = await import('node:os');
    const folder = mkdtempSync(path.join(os.tmpdir(), 'novarch-labels-'));
    const file = path.join(folder, 'labels.yaml');
    expect(await readLabelsFile(file)).toEqual([]);
    await appendLabelEntry(file, { action: 'act_1', label: 'kill', by: 'ana' });
    expect(await readLabelsFile(file)).toEqual([{ action: 'act_1', label: 'kill', by: 'ana' }]);
    writeFileSync(file, '# checked\nlabels:\n  - action: act_1\n    label: maybe\n');
    await expect(readLabelsFile(file)).rejects.toThrow(
      `${file}:4  labels[0].label: Invalid option: expected one of "pass"|"kill"\n    hint: each label is {action: <action id>, label: pass | kill}; novarch rules label writes them`,
    );
  });
});

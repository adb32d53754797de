import { describe, it } from 'vitest';
import { openPostgresStore } from '../../../src/index.js';
import { expectCalibration, recordCalibrationScenario } from '../../store/calibration-scenario.js';
import { usePostgresServer } from '../../store/postgres-server.js';
import { recordGlobexRefund } from '../../store/replay-scenario.js';

// novarch rules calibrate on a real PostgreSQL server: the same figures as on SQLite, one tenant's.
const postgres = usePostgresServer();

describe('rules calibrate on PostgreSQL', () => {
  it('measures the rules against decided holds and labels, tenant-scoped', async () => {
    const store = await openPostgresStore(await postgres.freshDatabase());
    try {
      const recorded = await recordCalibrationScenario(store);
      await recordGlobexRefund(store, { recordId: 'G1', summary: 'g', amount: 10 });
      await expectCalibration(store, recorded.small.action.id);
    } finally {
      await store.close();
    }
  });
});

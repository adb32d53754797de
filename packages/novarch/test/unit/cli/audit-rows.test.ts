import { describe, expect, it } from 'vitest';
import { auditRows } from '../../../src/operations/audit-rows.js';
import { action, auditEntry, checkedInHold, deniedHold, session } from './cli-fixtures.js';

describe('auditRows', () => {
  it('gives a pending hold its state at the given time, and leaves other entries as they are', () => {
    const withoutHold = { action, session, verdicts: [] };
    const decided = { ...auditEntry, hold: deniedHold };
    const waitedOn = { ...auditEntry, hold: checkedInHold }; // last check-in 10:00:40
    const rows = (at: string) => auditRows([withoutHold, decided, waitedOn], new Date(at));

    expect(rows('2026-03-01T10:00:45.000Z')).toEqual([
      withoutHold,
      decided,
      { ...waitedOn, holdState: 'waiting' },
    ]);
    expect(rows('2026-03-01T10:01:00.000Z')[2]).toEqual({ ...waitedOn, holdState: 'abandoned' });
    // From the deadline (10:05:02.200) on.
    expect(rows('2026-03-01T10:05:02.200Z')[2]).toEqual({ ...waitedOn, holdState: 'expired' });
  });
});

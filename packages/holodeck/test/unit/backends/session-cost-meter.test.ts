import { describe, expect, it } from 'vitest';
import { SessionCostMeter } from '../../../src/backends/claude/session-cost-meter.js';

describe('SessionCostMeter', () => {
  it('turns running session totals into each turn’s own cost', () => {
    const meter = new SessionCostMeter();
    expect([meter.turnCost('a', 0.0045), meter.turnCost('a', 0.009), meter.turnCost('a', 0.0135)]).toEqual([
      0.0045, 0.0045, 0.0045,
    ]);
  });

  it('starts again at a new session id (/clear)', () => {
    const meter = new SessionCostMeter();
    meter.turnCost('a', 0.5);
    expect(meter.turnCost('b', 0.2)).toBe(0.2);
  });

  it('starts a resumed session from its saved total, or says the first turn is unknown', () => {
    const known = new SessionCostMeter();
    known.resumedAt('a', 0.3);
    expect(known.turnCost('a', 0.4)).toBe(0.1);
    const unknown = new SessionCostMeter();
    unknown.resumedAt('a', null);
    expect(unknown.turnCost('a', 0.4)).toBeNull();
    expect(unknown.turnCost('a', 0.5)).toBe(0.1);
  });
});

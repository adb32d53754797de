import type { HoldEvent } from 'novarch';
import { describe, expect, it } from 'vitest';
import { toHoldSessionEvent } from '../../../../src/backends/governance/hold-reporter.js';

// A hold as the chat is told about it: the commands that decide it, and on a Novarch server the
// hold's page in the console.

const pending = {
  type: 'hold-pending',
  hold: { id: 'hold_1', createdAt: '2026-12-01T10:00:00.000Z', deadline: '2026-12-01T10:02:00.000Z' },
  toolName: 'mcp__holodeck_tools__refund_order',
  actionType: 'refund_order',
  citations: { ruleIds: ['TEAM-2'], rationale: 'held' },
} as unknown as HoldEvent;

describe('toHoldSessionEvent', () => {
  it('names the console page of the hold when the agent is governed by a Novarch server', () => {
    const event = toHoldSessionEvent(pending, 'https://novarch.internal:7311/');
    expect(event).toMatchObject({
      type: 'hold-pending',
      hold: {
        consoleUrl: 'https://novarch.internal:7311/console/holds/hold_1',
        commands: { approve: 'novarch holds approve hold_1 --server https://novarch.internal:7311/' },
      },
    });
  });

  it('has no console page for a local store', () => {
    const event = toHoldSessionEvent(pending, '/srv/agent/novarch.db');
    expect(event.type).toBe('hold-pending');
    expect(event.type === 'hold-pending' ? event.hold.consoleUrl : 'not pending').toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { createStyle } from '../../../src/cli/terminal-style.js';
import * as audit from '../../../src/format/format-audit.js';
import * as holds from '../../../src/format/format-holds.js';
import * as sessions from '../../../src/format/format-sessions.js';
import * as table from '../../../src/format/format-table.js';
import {
  action,
  auditEntry,
  checkedInHold,
  deniedHold,
  killedSession,
  pendingHold,
  session,
} from './cli-fixtures.js';
import { printed } from './printed.js';

const formatAuditTable = printed(audit.formatAuditTable);
const formatHoldsTable = printed(holds.formatHoldsTable);
const formatKilledSession = printed(sessions.formatKilledSession);
const formatSessionsTable = printed(sessions.formatSessionsTable);
const formatTable = printed(table.formatTable);
const { formatJson } = table;

const colours = createStyle({ isTTY: true }, {});

describe('formatTable', () => {
  it('aligns columns two spaces apart with no trailing spaces', () => {
    expect(
      formatTable(
        ['A', 'LONG HEADER', 'C'],
        [
          ['xyz', 'b', ''],
          ['1', '2', '3'],
        ],
      ),
    ).toBe('A    LONG HEADER  C\nxyz  b\n1    2            3\n');
  });

  it('prints JSON pretty with a final newline', () => {
    expect(formatJson({ a: [1] })).toBe('{\n  "a": [\n    1\n  ]\n}\n');
  });
});

describe('table formatters', () => {
  /**
   * Proves item 11 of issue 14: agent text cannot spoof what operators see. A summary with a
   * newline cannot add a forged row, an escape code cannot hide or recolour the verdict, a bidi
   * override cannot reorder it; every cell stays on one line. (Before: printed raw.)
   */
  it('neutralises control and escape sequences in agent-supplied cells, one line per row', () => {
    const forged = {
      ...action,
      context: {
        recordId: 'c-7\u001b[8m',
        summary: 'ok\nhold_2  approved  ses_1  refund  c-9  pre-approved by finance\u202e',
      },
    };
    const table = formatHoldsTable([{ hold: pendingHold, action: forged }]);
    expect(table.split('\n')).toHaveLength(4);
    expect(table).not.toContain('\u001b');
    expect(table).not.toContain('\u202e');
    expect(table).toContain('c-7\\x1b[8m');
    expect(table).toContain('ok\\nhold_2  approved');
    expect(table).toContain('finance\\u202e');
    expect(formatAuditTable([{ ...auditEntry, action: forged }])).not.toContain('\u001b');
  });

  it('lists holds with their action', () => {
    expect(formatHoldsTable([{ hold: pendingHold, action }, { hold: deniedHold }])).toBe(
      `HOLD    STATUS   SESSION  ACTION  RECORD  DEADLINE                  SUMMARY
hold_1  pending  ses_1    refund  c-7     2026-03-01T10:05:02.200Z  Refund 900 € to c-7
hold_1  denied   ses_1    -       -       2026-03-01T10:05:02.200Z  -
(RECORD and SUMMARY are written by the agent)
`,
    );
    expect(formatHoldsTable([])).toBe('No holds found.\n');
  });

  it('says in STATUS whether anything waits on a pending hold', () => {
    expect(
      formatHoldsTable([
        { hold: checkedInHold, action, state: 'waiting' },
        { hold: checkedInHold, action, state: 'abandoned' },
        { hold: checkedInHold, state: 'expired' },
        { hold: deniedHold },
      ]),
    ).toBe(
      `HOLD    STATUS               SESSION  ACTION  RECORD  DEADLINE                  SUMMARY
hold_1  pending (waiting)    ses_1    refund  c-7     2026-03-01T10:05:02.200Z  Refund 900 € to c-7
hold_1  pending (abandoned)  ses_1    refund  c-7     2026-03-01T10:05:02.200Z  Refund 900 € to c-7
hold_1  pending (expired)    ses_1    -       -       2026-03-01T10:05:02.200Z  -
hold_1  denied               ses_1    -       -       2026-03-01T10:05:02.200Z  -
(RECORD and SUMMARY are written by the agent)
`,
    );
    const [, waiting, abandoned] = formatHoldsTable(
      [
        { hold: checkedInHold, action, state: 'waiting' },
        { hold: checkedInHold, action, state: 'abandoned' },
      ],
      colours,
    ).split('\n');
    expect(waiting).toContain('\u001b[33mpending (waiting)\u001b[39m    ses_1');
    expect(abandoned).toContain('\u001b[31mpending (abandoned)\u001b[39m  ses_1');
  });

  it('lists sessions with their kill', () => {
    expect(formatSessionsTable([session, killedSession])).toBe(
      `SESSION  TENANT  TEAM     AGENT       STARTED                   HOLD WAIT  KILLED                    KILL REASON
ses_1    acme    support  refund-bot  2026-03-01T10:00:00.000Z  300s       -                         -
ses_2    acme    support  notes-bot   2026-03-01T10:00:00.000Z  300s       2026-03-01T10:05:00.000Z  operator ana: deleting notes
`,
    );
    expect(formatSessionsTable([])).toBe('No sessions found.\n');
    expect(formatKilledSession(killedSession)).toBe(
      'Session ses_2 killed at 2026-03-01T10:05:00.000Z: operator ana: deleting notes\n' +
        'The gate refuses its next tool call, reads included.\n',
    );
  });

  it('prints one audit line per action, `-` where there is no verdict or hold', () => {
    const bare = { action: { ...action, id: 'act_2', actionType: 'add_note' }, session, verdicts: [] };
    expect(formatAuditTable([auditEntry, bare])).toBe(
      `TIME                      SESSION  AGENT       ACTION    RECORD  VERDICT  RULES   HOLD
2026-03-01T10:00:02.000Z  ses_1    refund-bot  refund    c-7     hold     TEAM-2  pending
2026-03-01T10:00:02.000Z  ses_1    refund-bot  add_note  c-7     -        -       -
(RECORD is written by the agent)
`,
    );
    expect(formatAuditTable([])).toBe('No actions found.\n');
    const [, abandoned] = formatAuditTable([{ ...auditEntry, holdState: 'abandoned' }]).split('\n');
    expect(abandoned).toMatch(/TEAM-2 {2}pending \(abandoned\)$/);
  });

  it('colours statuses only when the style is on, keeping the columns aligned', () => {
    const [, row] = formatHoldsTable([{ hold: pendingHold, action }], colours).split('\n');
    expect(row).toBe(
      'hold_1  \u001b[33mpending\u001b[39m  ses_1    refund  c-7     2026-03-01T10:05:02.200Z  Refund 900 € to c-7',
    );
    expect(formatAuditTable([auditEntry], colours)).toContain('\u001b[33mhold\u001b[39m     TEAM-2');
  });
});

describe('createStyle', () => {
  it('colours only on a TTY, never with NO_COLOR or TERM=dumb', () => {
    expect(createStyle({ isTTY: true }, {}).red('x')).toBe('\u001b[31mx\u001b[39m');
    expect(createStyle({ isTTY: true }, { NO_COLOR: '1' }).red('x')).toBe('x');
    expect(createStyle({ isTTY: true }, { TERM: 'dumb' }).red('x')).toBe('x');
    expect(createStyle({ isTTY: false }, {}).red('x')).toBe('x');
  });
});

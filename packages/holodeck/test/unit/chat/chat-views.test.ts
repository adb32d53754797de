import { describe, expect, it } from 'vitest';
import type { ExecutionResult, PendingHold } from '../../../src/backends/contract/index.js';
import { emptyTokenUsage } from '../../../src/backends/contract/index.js';
import { describeApproval } from '../../../src/chat/approval-view.js';
import { createChatStyle } from '../../../src/chat/chat-style.js';
import {
  describePendingHold,
  describeResolvedHold,
  formatDeadline,
  holdCountdown,
  holdWaitText,
} from '../../../src/chat/hold-view.js';
import { describeCommands, parsePromptInput } from '../../../src/chat/slash-commands.js';
import { shortArguments, TurnView } from '../../../src/chat/turn-view.js';
import { turnFooter, UsageSummary } from '../../../src/chat/usage-summary.js';
import { virtualScreen } from './chat-virtual-screen.js';

// The chat's pieces as a user sees them: tool lines, the usage line, slash commands, approval
// and hold prompts. Views draw on a headless xterm (virtualScreen), so cursor moves count.

const plain = createChatStyle(false);

function result(overrides: Partial<ExecutionResult> = {}): ExecutionResult {
  return {
    response: '',
    tool_calls: [],
    tool_results: [],
    token_usage: { ...emptyTokenUsage(), prompt_tokens: 1200, completion_tokens: 34, total_tokens: 1234 },
    cost_usd: 0.0053,
    num_turns: 1,
    duration_ms: 2300,
    session_id: 's',
    is_error: false,
    ...overrides,
  } as ExecutionResult;
}

describe('tool lines', () => {
  it('shows each tool call on one line: name, short arguments, outcome and duration', async () => {
    const screen = virtualScreen(80);
    const view = new TurnView(screen, plain);
    view.start();
    view.accept({ type: 'tool-call', callId: 'a', name: 'lookup_order', arguments: { order_id: 'A-1' } });
    view.accept({ type: 'tool-result', callId: 'a', name: 'lookup_order', result: 'ok', isError: false });
    view.accept({ type: 'tool-call', callId: 'b', name: 'Bash', arguments: { command: 'rm -rf /' } });
    view.accept({
      type: 'tool-result',
      callId: 'b',
      name: 'Bash',
      result: 'The user denied this Bash call: no',
      isError: true,
    });
    view.accept({ type: 'tool-call', callId: 'c', name: 'fetch', arguments: { url: 'x' } });
    view.accept({
      type: 'tool-result',
      callId: 'c',
      name: 'fetch',
      result: 'Tool "fetch" failed: 500',
      isError: true,
    });
    view.finish(undefined, '  footer');
    expect(await screen.lines()).toEqual([
      expect.stringMatching(/^✓ lookup_order order_id="A-1" done \d+ms$/),
      expect.stringMatching(/^⊘ Bash command="rm -rf \/" refused \d+ms$/),
      expect.stringMatching(/^✗ fetch url="x" failed \d+ms$/),
      '  footer',
    ]);
  });

  it('cuts long arguments to the room left, on one line, with escape sequences neutralised', () => {
    expect(shortArguments({ text: 'a'.repeat(50) }, 20)).toBe(`text="${'a'.repeat(13)}…`);
    expect(shortArguments({ text: 'one\ntwo', n: 3 }, 80)).toBe('text="one\\ntwo" n=3');
    expect(shortArguments({ title: '\u001b]0;pwned\u0007x' }, 80)).toBe('title="\\u001b]0;pwned\\u0007x"');
  });

  it('streams markdown rendered: a finished block is printed once, only the block being written is redrawn', async () => {
    const screen = virtualScreen(60);
    const view = new TurnView(screen, plain);
    view.start();
    view.accept({ type: 'text-delta', text: 'Hello **the' });
    view.accept({ type: 'text-delta', text: 're**.\n\n- one\n- tw' });
    expect(await screen.lines()).toEqual(['Hello there.', '', '• one', '• tw']);
    view.accept({ type: 'text-delta', text: 'o' });
    view.finish(undefined, '  1 in · 2 out');
    expect(await screen.lines()).toEqual(['Hello there.', '', '• one', '• two', '  1 in · 2 out']);
    const written = screen.written.join('');
    // The first paragraph was drawn for good once it ended: never again, never the raw markdown.
    expect(written.split('Hello there.')).toHaveLength(2);
    expect(written).not.toContain('**there**');
    // No redraw climbs above the block being written (at most its own rows).
    // biome-ignore lint/suspicious/noControlCharactersInRegex: reading cursor moves is the point
    const climbs = [...written.matchAll(/\u001b\[(\d+)A/g)].map((match) => Number(match[1]));
    expect(Math.max(0, ...climbs)).toBeLessThanOrEqual(2);
  });

  it('wraps a streamed answer at word boundaries at 40 columns, and leaves an answer taller than the screen as printed', async () => {
    const narrow = virtualScreen(40);
    const view = new TurnView(narrow, plain);
    const words = 'the quick brown fox jumps over the lazy dog again and again';
    for (const word of words.split(' ')) view.accept({ type: 'text-delta', text: `${word} ` });
    view.finish(undefined, '  done');
    const lines = await narrow.lines();
    expect(lines.slice(0, -1).join(' ').replace(/\s+/g, ' ').trim()).toBe(words);
    for (const line of lines) expect(line.length).toBeLessThan(40);
    const short = virtualScreen(40, 6);
    const tall = new TurnView(short, plain);
    tall.accept({ type: 'text-delta', text: '```\n1\n2\n3\n4\n5\n' });
    tall.accept({ type: 'text-delta', text: '6\n7\n```\n\nafter' });
    tall.finish(undefined, '  done');
    const shown = await short.lines();
    expect(shown.join('\n')).toMatch(/1[\s\S]*7[\s\S]*after[\s\S]*done/);
  });

  it('never lets the model clear the screen or move the cursor', async () => {
    const screen = virtualScreen(60);
    screen.write('kept line\r\n');
    const view = new TurnView(screen, plain);
    view.start();
    view.accept({ type: 'text-delta', text: 'evil\u001b[2J\u001b[1;1Hstill here' });
    view.finish(undefined, '  done');
    expect(await screen.lines()).toEqual(['kept line', 'evilstill here', '  done']);
  });
});

describe('usage line', () => {
  it('shows tokens, cost and context use after a turn (tokens on every backend, the share when the window is known)', () => {
    expect(turnFooter(result(), 200_000)).toEqual({
      text: '  1,200 in · 34 out · $0.0053 · context 1,200 tokens (1% of 200,000) · 2.3s',
    });
  });

  it('leaves the time the human took to answer approvals out of the turn time', () => {
    expect(turnFooter(result(), undefined, 2_000).text).toMatch(/ · 0\.3s$/);
    expect(turnFooter(result(), undefined, 9_000).text).toMatch(/ · 0\.0s$/);
  });

  it('says the cost is unknown when the provider reports none, and the context in tokens without a window', () => {
    expect(turnFooter(result({ cost_usd: null }), undefined).text).toBe(
      '  1,200 in · 34 out · cost unknown · context 1,200 tokens · 2.3s',
    );
  });

  it('warns as the context fills', () => {
    const full = result({
      token_usage: { ...emptyTokenUsage(), prompt_tokens: 1000, cache_read_tokens: 169_000 },
    });
    expect(turnFooter(full, 200_000)).toMatchObject({
      warning: 'the context is 85% full: /clear starts a new conversation',
    });
    expect(turnFooter(result(), 200_000).warning).toBeUndefined();
  });

  it('/usage adds turns up; one turn of unknown cost makes the total unknown', () => {
    const usage = new UsageSummary();
    usage.add(result());
    usage.add(result({ cost_usd: 0.001 }));
    expect(usage.describe()).toBe('2 turn(s) · 2,400 in / 68 out tokens (0 from cache) · $0.0063');
    usage.add(result({ cost_usd: null }));
    expect(usage.describe()).toMatch(/3 turn\(s\) .* cost unknown \(the provider reports no price\)$/);
  });
});

describe('slash commands', () => {
  it('reads commands, their argument, unknown commands, //text and empty lines', () => {
    expect(parsePromptInput('/help')).toEqual({ kind: 'command', name: 'help', argument: '' });
    expect(parsePromptInput('  /save  notes/chat.md ')).toEqual({
      kind: 'command',
      name: 'save',
      argument: 'notes/chat.md',
    });
    expect(parsePromptInput('/frobnicate now')).toEqual({ kind: 'unknown-command', word: '/frobnicate' });
    expect(parsePromptInput('//help me')).toEqual({ kind: 'message', text: '/help me' });
    expect(parsePromptInput('  hello\nworld  ')).toEqual({ kind: 'message', text: 'hello\nworld' });
    expect(parsePromptInput('   ')).toEqual({ kind: 'empty' });
    expect(parsePromptInput('a /help in the middle')).toEqual({
      kind: 'message',
      text: 'a /help in the middle',
    });
  });

  it('lists every command in /help', () => {
    const help = describeCommands();
    for (const command of ['/help', '/clear', '/tools', '/usage', '/save [file]', '/exit', '/quit'])
      expect(help).toContain(command);
  });
});

describe('approval prompt', () => {
  it('shows the tool, why it asks and an edit as a diff', () => {
    const text = describeApproval(
      {
        callId: 'c',
        toolName: 'Edit',
        arguments: { file_path: 'a.txt', old_string: 'old\u001b[2Jline', new_string: 'new line' },
        reason: 'claude.permission_mode: manual',
        respond: () => {},
      },
      plain,
      80,
    );
    expect(text.split('\n')).toEqual([
      '? Edit wants to run (claude.permission_mode: manual)',
      '  file: a.txt',
      '  - oldline',
      '  + new line',
    ]);
  });
});

describe('hold view', () => {
  const hold: PendingHold = {
    holdId: 'hold_1',
    toolName: 'mcp__holodeck_tools__refund_order',
    actionType: 'refund_order',
    ruleIds: ['TEAM-2'],
    rationale: 'TEAM-2 v1 (hold): Refunds over 500 are held for a human.',
    createdAt: '2026-12-01T10:00:00.000Z',
    deadline: '2026-12-01T10:02:00.000Z',
    commands: {
      approve: 'novarch holds approve hold_1 --store /tmp/novarch.db',
      deny: 'novarch holds deny hold_1 --store /tmp/novarch.db --rationale "…"',
    },
  };

  it('counts down to the deadline, never below zero', () => {
    const start = Date.parse(hold.createdAt);
    expect(holdCountdown(hold.deadline, start)).toBe('2:00');
    expect(holdCountdown(hold.deadline, start + 61_500)).toBe('0:59');
    expect(holdCountdown(hold.deadline, start + 500_000)).toBe('0:00');
    expect(holdCountdown('2026-12-01T12:00:05.000Z', start)).toBe('2:00:05');
    expect(holdWaitText(hold, start)).toBe('waiting for an operator to decide hold hold_1 · 2:00 left');
  });

  it('shows the held tool, the rule, why, the hold id and the commands that decide it', () => {
    const lines = describePendingHold(hold, plain).split('\n');
    expect(lines[0]).toBe('⏸ refund_order is held for an operator (rule TEAM-2)');
    expect(lines[1]).toBe('  why: TEAM-2 v1 (hold): Refunds over 500 are held for a human.');
    expect(lines[2]).toMatch(
      /^ {2}hold hold_1 · no decision by 2026-12-01 \d\d:\d\d:00 \S+ refuses it and stops the session$/,
    );
    expect(lines.slice(3)).toEqual([
      '  approve: novarch holds approve hold_1 --store /tmp/novarch.db',
      '  deny:    novarch holds deny hold_1 --store /tmp/novarch.db --rationale "…"',
    ]);
    // Governed by a Novarch server: the hold's page in its console too.
    const served = { ...hold, consoleUrl: 'https://novarch.internal:7311/console/holds/hold_1' };
    expect(describePendingHold(served, plain).split('\n').at(-1)).toBe(
      '  console: https://novarch.internal:7311/console/holds/hold_1',
    );
  });

  it('writes the deadline with its date and time zone', () => {
    expect(formatDeadline('2026-12-01T10:02:00.000Z', 'UTC')).toBe('2026-12-01 10:02:00 UTC');
    expect(formatDeadline('2026-12-01T10:02:00.000Z', 'Europe/Paris')).toMatch(
      /^2026-12-01 11:02:00 (CET|GMT\+1)$/,
    );
    expect(formatDeadline('2026-12-01T23:30:00.000Z', 'Asia/Tokyo')).toMatch(/^2026-12-02 08:30:00 /);
  });

  it('says how the hold ended', () => {
    const base = { holdId: 'hold_1', toolName: 'mcp__holodeck_tools__refund_order' };
    expect(
      describeResolvedHold(
        { ...base, status: 'approved', stopsSession: false, decidedBy: 'ana', rationale: 'ok' },
        plain,
      ),
    ).toBe('✓ hold hold_1 approved by ana: ok; refund_order runs');
    expect(
      describeResolvedHold(
        { ...base, status: 'denied', stopsSession: false, decidedBy: 'ana', rationale: 'too much' },
        plain,
      ),
    ).toBe('⊘ hold hold_1 denied by ana: too much');
    expect(
      describeResolvedHold(
        { ...base, status: 'timed_out', stopsSession: true, decidedBy: 'novarch', rationale: 'no decision' },
        plain,
      ),
    ).toBe('⊘ hold hold_1 timed out: no decision; the session is stopped');
    expect(
      describeResolvedHold(
        { ...base, status: 'timed_out', stopsSession: false, rationale: 'aborted' },
        plain,
      ),
    ).toBe('⊘ hold hold_1 timed out: aborted');
    expect(
      describeResolvedHold({ ...base, status: 'skipped', stopsSession: true, decidedBy: 'bo' }, plain),
    ).toBe('⊘ hold hold_1 skipped by bo; the session is stopped');
  });

  it('draws a pending hold above a spinner that counts down, then the outcome', async () => {
    const screen = virtualScreen(100);
    const view = new TurnView(screen, plain);
    view.start();
    const soon = { ...hold, deadline: new Date(Date.now() + 90_000).toISOString() };
    view.accept({ type: 'hold-pending', hold: soon });
    const waiting = await screen.lines();
    expect(waiting[0]).toBe('⏸ refund_order is held for an operator (rule TEAM-2)');
    expect(waiting.at(-1)).toMatch(/^. waiting for an operator to decide hold hold_1 · 1:(29|30) left…$/);
    view.accept({
      type: 'hold-resolved',
      hold: {
        holdId: 'hold_1',
        toolName: hold.toolName,
        status: 'approved',
        stopsSession: false,
        decidedBy: 'ana',
      },
    });
    view.stopSpinner();
    const after = await screen.lines();
    expect(after.at(-1)).toBe('✓ hold hold_1 approved by ana; refund_order runs');
    expect(after.join('\n')).not.toContain('left…');
  });
});

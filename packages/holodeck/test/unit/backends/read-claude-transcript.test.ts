import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  readClaudeTranscript,
  transcriptOfEntries,
} from '../../../src/backends/claude/read-claude-transcript.js';

// The turns of a Claude CLI session transcript (`holodeck test add --from-session`). The entry
// shapes are the CLI's own (2.1.x), as found in ~/.claude/projects/<folder>/<id>.jsonl.
const user = (content: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'user',
  message: { role: 'user', content },
  ...extra,
});
const assistant = (id: string, content: unknown[], extra: Record<string, unknown> = {}) => ({
  type: 'assistant',
  message: { id, role: 'assistant', content },
  ...extra,
});

describe('transcriptOfEntries', () => {
  it('makes a turn of each typed message, with its tools and the answer after the last tool', () => {
    const transcript = transcriptOfEntries('s1', [
      { type: 'queue-operation', operation: 'enqueue' },
      user('Where is A-1?'),
      { type: 'attachment', attachment: { type: 'date' } },
      assistant('m1', [{ type: 'text', text: 'Let me look.' }]),
      assistant('m1', [
        { type: 'tool_use', id: 't1', name: 'mcp__holodeck_tools__lookup_order', input: { order_id: 'A-1' } },
      ]),
      user([{ type: 'tool_result', tool_use_id: 't1', content: 'shipped' }]),
      assistant('m2', [{ type: 'text', text: 'It has ' }]),
      assistant('m2', [{ type: 'text', text: 'shipped.' }]),
      user('a side chain', { isSidechain: true }),
      user('<meta>', { isMeta: true }),
      user([{ type: 'text', text: 'Thanks' }]),
      assistant('m3', [{ type: 'text', text: 'First.' }]),
      assistant('m4', [{ type: 'tool_use', id: 't2', name: 'StructuredOutput', input: {} }]),
      assistant('m5', [{ type: 'text', text: 'You are welcome.' }]),
    ]);
    expect(transcript).toEqual({
      sessionId: 's1',
      turns: [
        {
          input: 'Where is A-1?',
          toolCalls: [{ name: 'lookup_order', arguments: { order_id: 'A-1' } }],
          response: 'It has shipped.',
        },
        { input: 'Thanks', toolCalls: [], response: 'You are welcome.' },
      ],
    });
  });
});

describe('readClaudeTranscript', () => {
  const home = mkdtempSync(path.join(tmpdir(), 'claude-transcript-'));
  const folder = path.join(home, '.claude', 'projects', '-tmp-agent');
  mkdirSync(folder, { recursive: true });

  it('finds the session in any project folder of HOME', async () => {
    writeFileSync(path.join(folder, 'abc-1.jsonl'), `${JSON.stringify(user('Hi'))}\n`);
    expect((await readClaudeTranscript('abc-1', { HOME: home })).turns).toEqual([
      { input: 'Hi', toolCalls: [], response: '' },
    ]);
  });

  it('names the file and line of a line that is not JSON, and where it looked for a missing one', async () => {
    const file = path.join(folder, 'abc-2.jsonl');
    writeFileSync(file, `${JSON.stringify(user('Hi'))}\n{"type":\n`);
    await expect(readClaudeTranscript('abc-2', { HOME: home })).rejects.toThrow(
      `session transcript ${file}:2 is not valid JSON`,
    );
    await expect(readClaudeTranscript('nope', { HOME: home })).rejects.toThrow(
      `no saved session "nope" for this agent: the Claude CLI keeps sessions in ${path.join(home, '.claude', 'projects')}/<folder>/<id>.jsonl`,
    );
    await expect(readClaudeTranscript('../x', { HOME: home })).rejects.toThrow('"../x" is not a session id');
  });
});

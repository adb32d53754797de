import { describe, expect, it } from 'vitest';
import type { ElicitationRequest } from '../../../src/backends/contract/index.js';
import { createChatStyle } from '../../../src/chat/chat-style.js';
import { askElicitation } from '../../../src/chat/elicitation-prompt.js';
import type { LineResult } from '../../../src/chat/line-editor.js';

/** The prompt with scripted lines (`null`: Ctrl+C or Esc); what it printed and asked, in order. */
function scripted(lines: (string | null)[]) {
  const shown: string[] = [];
  return {
    shown,
    io: {
      style: createChatStyle(false),
      print: (text: string) => shown.push(text),
      read: async (prompt: string): Promise<LineResult> => {
        shown.push(`[asks] ${prompt}`);
        const next = lines.shift();
        if (next === undefined) throw new Error(`no scripted answer for ${prompt}`);
        return next === null ? { kind: 'interrupt' } : { kind: 'line', text: next };
      },
    },
  };
}

const request = (extra: Partial<ElicitationRequest>): ElicitationRequest => ({
  id: 'elicitation-1',
  server: 'srv',
  message: 'Need input',
  mode: 'form',
  respond: () => {},
  ...extra,
});

describe('askElicitation (the terminal chat)', () => {
  it('a URL request shows the URL, escaped; y accepts with no content', async () => {
    const { io, shown } = scripted(['maybe', 'y']);
    const answer = await askElicitation(
      request({ mode: 'url', url: 'https://auth.example.com/\u001b[2Jlogin', message: 'Sign in\u0007' }),
      io,
    );
    expect(answer).toEqual({ action: 'accept', content: {} });
    expect(shown[0]).toBe('? MCP server srv asks: Sign in�\n  open: https://auth.example.com/login');
    expect(shown).toContain('Type y to answer, n to decline; Ctrl+C or Esc cancels.');
  });

  it('declines a form it cannot show, saying why, without asking', async () => {
    const { io, shown } = scripted([]);
    const answer = await askElicitation(
      request({ requestedSchema: { type: 'object', properties: { a: { type: 'object' } } } }),
      io,
    );
    expect(answer).toEqual({ action: 'decline' });
    expect(shown).toEqual([
      '⊘ MCP server srv asked for a form the chat cannot show: field "a" is of type "object"; MCP forms have flat fields: string, number, integer, boolean, or an enum of strings. Declined; the server is told so.',
    ]);
  });

  it('skips an optional field on Enter; Ctrl+C in a field cancels', async () => {
    const schema = {
      type: 'object',
      properties: { note: { type: 'string' }, code: { type: 'string', minLength: 4 } },
      required: ['code'],
    };
    const filled = scripted(['y', '', 'abcd']);
    expect(await askElicitation(request({ requestedSchema: schema }), filled.io)).toEqual({
      action: 'accept',
      content: { code: 'abcd' },
    });
    const cancelled = scripted(['y', '', null]);
    expect(await askElicitation(request({ requestedSchema: schema }), cancelled.io)).toEqual({
      action: 'cancel',
    });
    expect(await askElicitation(request({ requestedSchema: schema }), scripted([null]).io)).toEqual({
      action: 'cancel',
    });
    expect(await askElicitation(request({ requestedSchema: schema }), scripted(['n']).io)).toEqual({
      action: 'decline',
    });
  });
});

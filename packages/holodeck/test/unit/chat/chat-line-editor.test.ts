import { emitKeypressEvents } from 'node:readline';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type Key, LineEditor, type LineResult } from '../../../src/chat/line-editor.js';
import { virtualScreen } from './chat-virtual-screen.js';

// The prompt's line editor driven by raw terminal bytes through Node's own keypress parser
// (readline.emitKeypressEvents), as the chat drives it, drawn on a headless xterm.

const ENTER = '\r';
const LEFT = '\u001b[D';
const RIGHT = '\u001b[C';
const UP = '\u001b[A';
const DOWN = '\u001b[B';
const HOME = '\u001b[H';
const END = '\u001b[F';
const ALT_ENTER = '\u001b\r';
const ctrl = (letter: string) => String.fromCharCode(letter.charCodeAt(0) - 96);
const paste = (text: string) => `\u001b[200~${text}\u001b[201~`;

/** An editor fed from a stream of bytes; `type` writes bytes and waits until they were handled. */
function editorOn(history: string[] = [], columns = 80) {
  const screen = virtualScreen(columns);
  const editor = new LineEditor(screen.write, screen.columns, history);
  const input = new PassThrough();
  emitKeypressEvents(input);
  input.on('keypress', (text: string | undefined, key: Key | undefined) => editor.key(text, key ?? {}));
  const type = async (bytes: string) => {
    input.write(bytes);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { editor, screen, type };
}

/** Reads one message typed as `bytes`. */
async function read(bytes: string, history: string[] = []): Promise<LineResult> {
  const { editor, type } = editorOn(history);
  const line = editor.read('> ');
  await type(bytes);
  return line;
}

describe('LineEditor keys', () => {
  it('inserts at the cursor moved with ←/→, Home/End and Ctrl+A/E/B/F', async () => {
    expect(await read(`helo world${LEFT.repeat(7)}l${ENTER}`)).toEqual({ kind: 'line', text: 'hello world' });
    expect(await read(`bc${HOME}a${END}d${ENTER}`)).toEqual({ kind: 'line', text: 'abcd' });
    expect(await read(`bc${ctrl('a')}a${ctrl('e')}d${ENTER}`)).toEqual({ kind: 'line', text: 'abcd' });
    expect(await read(`ac${ctrl('b')}b${ctrl('f')}d${ENTER}`)).toEqual({ kind: 'line', text: 'abcd' });
    expect(await read(`ab${LEFT}${LEFT}${LEFT}${RIGHT}x${ENTER}`)).toEqual({ kind: 'line', text: 'axb' });
  });

  it('deletes with Backspace, Delete, Ctrl+W (a word), Ctrl+U (to the start) and Ctrl+K (to the end)', async () => {
    expect(await read(`abcd\u007f\u007f${ENTER}`)).toEqual({ kind: 'line', text: 'ab' });
    expect(await read(`abcd${LEFT}${LEFT}\u001b[3~${ENTER}`)).toEqual({ kind: 'line', text: 'abd' });
    expect(await read(`git push  --force${ctrl('w')}${ENTER}`)).toEqual({ kind: 'line', text: 'git push  ' });
    expect(await read(`one two${LEFT.repeat(3)}${ctrl('u')}${ENTER}`)).toEqual({ kind: 'line', text: 'two' });
    expect(await read(`one two${LEFT.repeat(3)}${ctrl('k')}${ENTER}`)).toEqual({
      kind: 'line',
      text: 'one ',
    });
    expect(await read(`abc${LEFT}${ctrl('d')}${ENTER}`)).toEqual({ kind: 'line', text: 'ab' });
  });

  it('walks the history with ↑/↓ and brings back the unsent draft', async () => {
    const history = ['first', 'second'];
    expect(await read(`${UP}${ENTER}`, history)).toEqual({ kind: 'line', text: 'second' });
    expect(await read(`${UP}${UP}${UP}${ENTER}`, history)).toEqual({ kind: 'line', text: 'first' });
    expect(await read(`draft${UP}${UP}${DOWN}${DOWN}${ENTER}`, history)).toEqual({
      kind: 'line',
      text: 'draft',
    });
    // An edited history entry is sent as edited.
    expect(await read(`${UP}!${ENTER}`, history)).toEqual({ kind: 'line', text: 'second!' });
  });

  it('continues a message on a new line with Alt+Enter, Ctrl+J or a trailing backslash', async () => {
    expect(await read(`one${ALT_ENTER}two${ENTER}`)).toEqual({ kind: 'line', text: 'one\ntwo' });
    expect(await read(`one${ctrl('j')}two${ENTER}`)).toEqual({ kind: 'line', text: 'one\ntwo' });
    expect(await read(`one\\${ENTER}two${ENTER}`)).toEqual({ kind: 'line', text: 'one\ntwo' });
    // ↑ moves between the lines of a multi-line message before it reaches the history.
    expect(await read(`ab${ctrl('j')}cd${UP}X${ENTER}`, ['old'])).toEqual({ kind: 'line', text: 'abX\ncd' });
  });

  it('takes a bracketed paste as one message: its newlines and Enters do not send it', async () => {
    expect(await read(`${paste('line one\rline two\nline three')}${ENTER}`)).toEqual({
      kind: 'line',
      text: 'line one\nline two\nline three',
    });
    // Control keys inside a paste are not commands: Ctrl+C in a paste does not clear the line.
    expect(await read(`keep ${paste(`a${ctrl('c')}b`)}${ENTER}`)).toEqual({ kind: 'line', text: 'keep ab' });
  });

  it('Ctrl+C clears a line, and on an empty line interrupts; Ctrl+D on an empty line is end of input', async () => {
    expect(await read(`typo${ctrl('c')}fixed${ENTER}`)).toEqual({ kind: 'line', text: 'fixed' });
    expect(await read(ctrl('c'))).toEqual({ kind: 'interrupt' });
    expect(await read(ctrl('d'))).toEqual({ kind: 'eof' });
  });

  it('never inserts control characters or unknown escape sequences', async () => {
    expect(await read(`a\u0007b\u001b[15~c${ENTER}`)).toEqual({ kind: 'line', text: 'abc' });
    expect(await read(`a\tb${ENTER}`)).toEqual({ kind: 'line', text: 'a  b' });
  });

  it('draws the prompt and the line as edited, and continuation lines with …', async () => {
    const { editor, screen, type } = editorOn();
    const line = editor.read('> ');
    await type(`helo${LEFT}l${END}${ctrl('j')}second`);
    expect(await screen.lines()).toEqual(['> hello', '… second']);
    await type(ENTER);
    await line;
  });

  it('redraws a line longer than the terminal over its wrapped rows', async () => {
    const { editor, screen, type } = editorOn([], 20);
    const line = editor.read('> ');
    await type(`${'x'.repeat(30)}${ctrl('a')}y`);
    expect(await screen.lines()).toEqual([`> y${'x'.repeat(17)}`, 'x'.repeat(13)]);
    await type(ENTER);
    expect(await line).toEqual({ kind: 'line', text: `y${'x'.repeat(30)}` });
  });

  it('ignores keys when it is not reading', async () => {
    const { editor, screen, type } = editorOn();
    await type('abc');
    expect(editor.active).toBe(false);
    expect(await screen.lines()).toEqual([]);
  });
});

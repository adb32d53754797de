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

  it('Ctrl+C clears a line and warns; only a second Ctrl+C at once ends; Ctrl+D on an empty line is end of input', async () => {
    expect(await read(`typo${ctrl('c')}fixed${ENTER}`)).toEqual({ kind: 'line', text: 'fixed' });
    expect(await read(`${ctrl('c')}${ctrl('c')}`)).toEqual({ kind: 'interrupt' });
    expect(await read(`typo${ctrl('c')}${ctrl('c')}`)).toEqual({ kind: 'interrupt' });
    // A key between the two disarms: the next Ctrl+C warns again.
    expect(await read(`${ctrl('c')}a${ctrl('c')}b${ENTER}`)).toEqual({ kind: 'line', text: 'b' });
    expect(await read(ctrl('d'))).toEqual({ kind: 'eof' });
  });

  it('shows "press Ctrl+C again to exit" under the cleared line, and removes it at the next key', async () => {
    const { editor, screen, type } = editorOn();
    const line = editor.read('> ');
    await type(`half a thought${ctrl('c')}`);
    expect(await screen.lines()).toEqual(['> ', 'press Ctrl+C again to exit']);
    await type('x');
    expect(await screen.lines()).toEqual(['> x']);
    await type(ENTER);
    expect(await line).toEqual({ kind: 'line', text: 'x' });
  });

  it('an answer to a question (no history) ends at the first Ctrl+C', async () => {
    const { editor, type } = editorOn();
    const line = editor.read('Reason: ', false);
    await type(ctrl('c'));
    expect(await line).toEqual({ kind: 'interrupt' });
  });

  it('moves a word back and forward with Alt+B/F and Ctrl+←/→, and deletes one with Alt+Backspace and Alt+D', async () => {
    const ALT = (key: string) => `\u001b${key}`;
    const CTRL_LEFT = '\u001b[1;5D';
    const CTRL_RIGHT = '\u001b[1;5C';
    expect(await read(`one two  three${ALT('b')}${ALT('b')}X${ENTER}`)).toEqual({
      kind: 'line',
      text: 'one Xtwo  three',
    });
    expect(await read(`one two three${ctrl('a')}${ALT('f')}X${ENTER}`)).toEqual({
      kind: 'line',
      text: 'oneX two three',
    });
    expect(await read(`one two three${CTRL_LEFT}${CTRL_LEFT}X${CTRL_RIGHT}Y${ENTER}`)).toEqual({
      kind: 'line',
      text: 'one XtwoY three',
    });
    expect(await read(`one two three${ALT('\u007f')}${ENTER}`)).toEqual({ kind: 'line', text: 'one two ' });
    expect(await read(`one two three${ctrl('a')}${ALT('d')}${ENTER}`)).toEqual({
      kind: 'line',
      text: ' two three',
    });
  });

  it('searches the history with Ctrl+R: typing narrows, Ctrl+R goes further back, Enter sends the match', async () => {
    const history = ['deploy staging', 'list files', 'deploy production', 'hello'];
    expect(await read(`${ctrl('r')}dep${ENTER}`, history)).toEqual({
      kind: 'line',
      text: 'deploy production',
    });
    expect(await read(`${ctrl('r')}dep${ctrl('r')}${ENTER}`, history)).toEqual({
      kind: 'line',
      text: 'deploy staging',
    });
    // → takes the match into the line to edit it; Ctrl+G cancels the search and keeps the draft.
    expect(await read(`${ctrl('r')}list${RIGHT}!${ENTER}`, history)).toEqual({
      kind: 'line',
      text: 'list files!',
    });
    expect(await read(`draft${ctrl('r')}dep${ctrl('g')}${ENTER}`, history)).toEqual({
      kind: 'line',
      text: 'draft',
    });
  });

  it('draws the search: the query and the match found, or that there is none', async () => {
    const { editor, screen, type } = editorOn(['deploy production']);
    const line = editor.read('> ');
    await type(`${ctrl('r')}dep`);
    expect(await screen.lines()).toEqual(['(history search) dep: deploy production']);
    await type('x');
    expect(await screen.lines()).toEqual(['(history search) depx (no match): ']);
    await type(ctrl('g'));
    expect(await screen.lines()).toEqual(['> ']);
    await type(ENTER);
    await line;
  });

  it('completes a slash command with Tab, and lists the candidates when several fit', async () => {
    const completions = ['/help', '/save', '/exit', '/quit', '/usage', '/undo'];
    const screen = virtualScreen(80);
    const editor = new LineEditor(screen.write, screen.columns, [], { completions });
    const input = new PassThrough();
    emitKeypressEvents(input);
    input.on('keypress', (text: string | undefined, key: Key | undefined) => editor.key(text, key ?? {}));
    const type = async (bytes: string) => {
      input.write(bytes);
      await new Promise((resolve) => setImmediate(resolve));
    };
    const first = editor.read('> ');
    await type(`/sa\tnotes.md${ENTER}`);
    expect(await first).toEqual({ kind: 'line', text: '/save notes.md' });
    const second = editor.read('> ');
    await type('/u\t');
    expect((await screen.lines()).slice(-2)).toEqual(['> /u', '/usage  /undo']);
    await type(`s\t${ENTER}`);
    expect(await second).toEqual({ kind: 'line', text: '/usage ' });
    // Not a command at the start of the line: Tab is blanks.
    const third = editor.read('> ');
    await type(`a\tb${ENTER}`);
    expect(await third).toEqual({ kind: 'line', text: 'a  b' });
  });

  it('opens the message in the external editor with Ctrl+X Ctrl+E or Ctrl+G and takes what was saved', async () => {
    const seen: string[] = [];
    const screen = virtualScreen(80);
    const editor = new LineEditor(screen.write, screen.columns, [], {
      openEditor: (text) => {
        seen.push(text);
        return seen.length === 1
          ? { text: `${text} and more\nsecond line\n` }
          : { error: 'the editor vi did not start' };
      },
    });
    const input = new PassThrough();
    emitKeypressEvents(input);
    input.on('keypress', (text: string | undefined, key: Key | undefined) => editor.key(text, key ?? {}));
    const type = async (bytes: string) => {
      input.write(bytes);
      await new Promise((resolve) => setImmediate(resolve));
    };
    const first = editor.read('> ');
    await type(`draft${ctrl('x')}${ctrl('e')}`);
    await type(ENTER);
    expect(await first).toEqual({ kind: 'line', text: 'draft and more\nsecond line' });
    const second = editor.read('> ');
    await type(`kept${ctrl('g')}`);
    expect((await screen.lines()).slice(-2)).toEqual(['> kept', 'the editor vi did not start']);
    await type(ENTER);
    expect(await second).toEqual({ kind: 'line', text: 'kept' });
    expect(seen).toEqual(['draft', 'kept']);
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

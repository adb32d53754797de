import type { Key, LineEditorHelpers, LineResult } from './line-editor-types.js';
import { terminalTextWidth } from './terminal-text-width.js';

export type { Key, LineEditorHelpers, LineResult } from './line-editor-types.js';

const EXIT_HINT = 'press Ctrl+C again to exit';

const CONTINUATION = '… ';

/**
 * The prompt's line editor, on raw keys: cursor keys, Home/End, Ctrl+A/E (start/end of the line),
 * Alt+B/F and Ctrl+←/→ (a word back/forward), Ctrl+W and Alt+Backspace (delete a word), Ctrl+U/K
 * (to start/end of the line), ↑/↓ through `history` (or between the lines of a multi-line
 * message), Ctrl+R (search the history), Tab (completes a slash command), Ctrl+X Ctrl+E or Ctrl+G
 * (the external editor), Ctrl+L (clear screen). A paste (bracketed paste) is inserted as is,
 * newlines included, so it becomes one message; Alt+Enter or Ctrl+J insert a newline, and so does
 * Enter after a trailing `\`. Enter sends; Ctrl+C clears the line and says "press Ctrl+C again to
 * exit"; a second Ctrl+C at once, on the empty line, ends the chat (`interrupt`); Ctrl+D on an
 * empty line is end of input.
 */
export class LineEditor {
  private buffer = '';
  private cursor = 0;
  private pasting = false;
  private historyIndex = 0;
  private draft = '';
  private renderedRows = 0;
  private cursorRow = 0;
  private prompt = '';
  private finish: ((result: LineResult) => void) | undefined;
  /** The last key was Ctrl+C (and the line is empty): another one ends the chat. */
  private exitArmed = false;
  private confirmInterrupt = true;
  /** Ctrl+X was pressed: Ctrl+E next opens the external editor. */
  private chord = false;
  /** Ctrl+R: the query, the history entry found, and the line before the search. */
  private search: { query: string; index: number; before: { buffer: string; cursor: number } } | undefined;
  private hint = '';

  constructor(
    private readonly write: (text: string) => void,
    private readonly columns: () => number,
    private readonly history: string[],
    private readonly helpers: LineEditorHelpers = {},
  ) {}

  get active(): boolean {
    return this.finish !== undefined;
  }

  /**
   * Reads one line. `useHistory: false` (a question's answer) has no history, and Ctrl+C there ends
   * the reading at once (`interrupt`) instead of asking for a second one.
   */
  read(prompt: string, useHistory = true): Promise<LineResult> {
    this.prompt = prompt;
    this.confirmInterrupt = useHistory;
    this.exitArmed = false;
    this.buffer = '';
    this.cursor = 0;
    this.renderedRows = 0;
    this.cursorRow = 0;
    this.historyIndex = useHistory ? this.history.length : -1;
    this.draft = '';
    this.search = undefined;
    this.chord = false;
    this.hint = '';
    const line = new Promise<LineResult>((resolve) => {
      this.finish = resolve;
    });
    this.render();
    return line;
  }

  /** Ends the line being read as `interrupt` (Esc in a question the chat asks). */
  cancel(): void {
    if (this.finish) this.done({ kind: 'interrupt' });
  }

  /** Handles one key while reading. */
  key(text: string | undefined, key: Key): void {
    if (!this.finish) return;
    const name = key.name;
    if (name === 'paste-start') {
      this.pasting = true;
      return;
    }
    if (name === 'paste-end') {
      this.pasting = false;
      return;
    }
    if (this.pasting) {
      if (name === 'return' || name === 'enter') this.insert('\n');
      else if (text && !key.ctrl) this.insert(text === '\t' ? '\t' : text);
      return;
    }
    const armed = this.exitArmed;
    this.exitArmed = false;
    if (this.hint) {
      this.hint = '';
      this.render();
    }
    if (this.search) {
      this.searchKey(text, key);
      return;
    }
    if (this.chord) {
      this.chord = false;
      if (key.ctrl && name === 'e') {
        this.externalEditor();
        return;
      }
    }
    if (key.ctrl && name === 'c') {
      this.interrupt(armed);
      return;
    }
    if (key.ctrl) {
      this.control(name);
      return;
    }
    if (key.meta && this.metaKey(name)) return;
    this.plainKey(text, key);
  }

  /** A key without Ctrl (or an Alt one metaKey does not take): editing, moving, sending. */
  private plainKey(text: string | undefined, key: Key): void {
    const name = key.name;
    switch (name) {
      case 'return':
        if (key.meta) {
          this.insert('\n');
          return;
        }
        if (this.buffer.slice(0, this.cursor).endsWith('\\') && this.cursor === this.buffer.length) {
          this.buffer = this.buffer.slice(0, -1);
          this.cursor -= 1;
          this.insert('\n');
          return;
        }
        this.done({ kind: 'line', text: this.buffer });
        return;
      case 'enter':
        this.insert('\n');
        return;
      case 'backspace':
        if (this.cursor === 0) return;
        this.buffer = this.buffer.slice(0, this.cursor - 1) + this.buffer.slice(this.cursor);
        this.cursor -= 1;
        this.render();
        return;
      case 'delete':
        this.buffer = this.buffer.slice(0, this.cursor) + this.buffer.slice(this.cursor + 1);
        this.render();
        return;
      case 'left':
        this.cursor = Math.max(0, this.cursor - 1);
        this.render();
        return;
      case 'right':
        this.cursor = Math.min(this.buffer.length, this.cursor + 1);
        this.render();
        return;
      case 'home':
        this.control('a');
        return;
      case 'end':
        this.control('e');
        return;
      case 'up':
        this.vertical(-1);
        return;
      case 'down':
        this.vertical(1);
        return;
      case 'escape':
        return;
      case 'tab':
        this.complete();
        return;
      default:
        // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
        if (text && !key.meta && !/^[\u0000-\u001f\u007f]/.test(text)) this.insert(text);
    }
  }

  private control(name: string | undefined): void {
    const lineStart = this.buffer.lastIndexOf('\n', this.cursor - 1) + 1;
    const nextBreak = this.buffer.indexOf('\n', this.cursor);
    const lineEnd = nextBreak === -1 ? this.buffer.length : nextBreak;
    switch (name) {
      case 'left':
        this.cursor = this.wordStart();
        this.render();
        return;
      case 'right':
        this.cursor = this.wordEnd();
        this.render();
        return;
      case 'r':
        if (this.historyIndex < 0) return;
        this.search = {
          query: '',
          index: this.history.length,
          before: { buffer: this.buffer, cursor: this.cursor },
        };
        this.render();
        return;
      case 'x':
        this.chord = true;
        return;
      case 'g':
        this.externalEditor();
        return;
      case 'd':
        if (!this.buffer) {
          this.done({ kind: 'eof' });
          return;
        }
        this.buffer = this.buffer.slice(0, this.cursor) + this.buffer.slice(this.cursor + 1);
        this.render();
        return;
      case 'a':
        this.cursor = lineStart;
        this.render();
        return;
      case 'e':
        this.cursor = lineEnd;
        this.render();
        return;
      case 'b':
        this.cursor = Math.max(0, this.cursor - 1);
        this.render();
        return;
      case 'f':
        this.cursor = Math.min(this.buffer.length, this.cursor + 1);
        this.render();
        return;
      case 'u':
        this.buffer = this.buffer.slice(0, lineStart) + this.buffer.slice(this.cursor);
        this.cursor = lineStart;
        this.render();
        return;
      case 'k':
        this.buffer = this.buffer.slice(0, this.cursor) + this.buffer.slice(lineEnd);
        this.render();
        return;
      case 'w': {
        const before = this.buffer.slice(0, this.cursor);
        const kept = before.replace(/\S+\s*$|\s+$/, '');
        this.buffer = kept + this.buffer.slice(this.cursor);
        this.cursor = kept.length;
        this.render();
        return;
      }
      case 'j':
        this.insert('\n');
        return;
      case 'l':
        this.write('\u001b[2J\u001b[H');
        this.renderedRows = 0;
        this.cursorRow = 0;
        this.render();
        return;
    }
  }

  /** Ctrl+C at the prompt: the first clears the line and warns, the second on an empty line ends the chat. */
  private interrupt(armed: boolean): void {
    if ((armed || !this.confirmInterrupt) && !this.buffer) {
      this.done({ kind: 'interrupt' });
      return;
    }
    this.buffer = '';
    this.cursor = 0;
    this.exitArmed = true;
    this.hint = EXIT_HINT;
    this.render();
  }

  /** Alt+key: word movement and deletion; false when the key means nothing here. */
  private metaKey(name: string | undefined): boolean {
    switch (name) {
      case 'b':
      case 'left':
        this.cursor = this.wordStart();
        break;
      case 'f':
      case 'right':
        this.cursor = this.wordEnd();
        break;
      case 'backspace': {
        const start = this.wordStart();
        this.buffer = this.buffer.slice(0, start) + this.buffer.slice(this.cursor);
        this.cursor = start;
        break;
      }
      case 'd': {
        const end = this.wordEnd();
        this.buffer = this.buffer.slice(0, this.cursor) + this.buffer.slice(end);
        break;
      }
      default:
        return false;
    }
    this.render();
    return true;
  }

  /** Where the word before the cursor starts (blanks before it skipped). */
  private wordStart(): number {
    const before = this.buffer.slice(0, this.cursor);
    return this.cursor - (/\S*\s*$/.exec(before)?.[0].length ?? 0);
  }

  /** Where the word after the cursor ends (blanks before it skipped). */
  private wordEnd(): number {
    const after = this.buffer.slice(this.cursor);
    const match = /^\s*[^\s]*/.exec(after);
    return this.cursor + (match?.[0].length ?? 0);
  }

  /** Tab: completes a slash command typed at the start of the line, or lists the candidates. */
  private complete(): void {
    const words = this.helpers.completions ?? [];
    const typed = this.buffer.slice(0, this.cursor);
    if (!/^\/[\w-]*$/.test(typed) || this.cursor !== this.buffer.length) {
      this.insert('  ');
      return;
    }
    const matches = words.filter((word) => word.startsWith(typed));
    if (matches.length === 0) return;
    if (matches.length === 1) {
      this.buffer = `${matches[0]} `;
      this.cursor = this.buffer.length;
      this.render();
      return;
    }
    let common = matches[0] ?? typed;
    for (const word of matches) while (!word.startsWith(common)) common = common.slice(0, -1);
    if (common.length > typed.length) {
      this.buffer = common;
      this.cursor = common.length;
    } else {
      this.hint = matches.join('  ');
    }
    this.render();
  }

  /** Ctrl+X Ctrl+E or Ctrl+G: the message in $VISUAL/$EDITOR; what was saved becomes the line. */
  private externalEditor(): void {
    const open = this.helpers.openEditor;
    if (!open) return;
    this.moveToEnd();
    this.write('\r\n');
    this.renderedRows = 0;
    this.cursorRow = 0;
    const outcome = open(this.buffer);
    if ('error' in outcome) this.hint = outcome.error;
    else {
      this.buffer = outcome.text.replace(/\r\n/g, '\n').replace(/\n+$/, '');
      this.cursor = this.buffer.length;
    }
    this.render();
  }

  /** A key while searching the history (Ctrl+R): typing narrows, Ctrl+R finds an older match. */
  private searchKey(text: string | undefined, key: Key): void {
    const search = this.search;
    if (!search) return;
    const find = (query: string, from: number) => {
      for (let index = from; index >= 0; index--) if (this.history[index]?.includes(query)) return index;
      return undefined;
    };
    const name = key.name;
    if (key.ctrl && name === 'r') {
      const found = find(search.query, search.index - 1);
      if (found !== undefined) search.index = found;
      this.render();
      return;
    }
    if ((key.ctrl && (name === 'g' || name === 'c')) || name === 'escape') {
      // Cancelled: the line as it was before the search.
      this.search = undefined;
      this.buffer = search.before.buffer;
      this.cursor = search.before.cursor;
      this.render();
      return;
    }
    if (name === 'backspace') {
      search.query = search.query.slice(0, -1);
      search.index = find(search.query, this.history.length - 1) ?? this.history.length;
      this.render();
      return;
    }
    // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
    if (text && !key.ctrl && !key.meta && name !== 'return' && !/^[\u0000-\u001f\u007f]/.test(text)) {
      const query = search.query + text;
      const found = find(query, Math.min(search.index, this.history.length - 1));
      search.query = query;
      if (found !== undefined) search.index = found;
      this.render();
      return;
    }
    // Any other key takes the match into the line; Enter then sends it, the others edit it.
    this.search = undefined;
    const match = this.history[search.index];
    if (match !== undefined && search.query && match.includes(search.query)) {
      this.buffer = match;
      this.cursor = match.length;
    } else {
      this.buffer = search.before.buffer;
      this.cursor = search.before.cursor;
    }
    this.render();
    this.key(text, key);
  }

  private vertical(direction: -1 | 1): void {
    const before = this.buffer.slice(0, this.cursor);
    const row = before.split('\n').length - 1;
    const rows = this.buffer.split('\n');
    const target = row + direction;
    if (target >= 0 && target < rows.length) {
      const column = before.length - (before.lastIndexOf('\n') + 1);
      const start = rows.slice(0, target).reduce((sum, line) => sum + line.length + 1, 0);
      this.cursor = start + Math.min(column, rows[target]?.length ?? 0);
      this.render();
      return;
    }
    if (this.historyIndex < 0) return;
    const next = this.historyIndex + direction;
    if (next < 0 || next > this.history.length) return;
    if (this.historyIndex === this.history.length) this.draft = this.buffer;
    this.historyIndex = next;
    this.buffer = next === this.history.length ? this.draft : (this.history[next] ?? '');
    this.cursor = this.buffer.length;
    this.render();
  }

  private insert(text: string): void {
    this.buffer = this.buffer.slice(0, this.cursor) + text + this.buffer.slice(this.cursor);
    this.cursor += text.length;
    this.render();
  }

  private done(result: LineResult): void {
    const finish = this.finish;
    this.finish = undefined;
    this.moveToEnd();
    this.write('\r\n');
    this.renderedRows = 0;
    this.cursorRow = 0;
    finish?.(result);
  }

  private lines(text: string): string[] {
    return text.split('\n').map((line, index) => (index === 0 ? this.prompt : CONTINUATION) + line);
  }

  private rowsOf(line: string): number {
    const columns = Math.max(1, this.columns());
    return Math.max(1, Math.ceil(terminalTextWidth(line.replace(/\t/g, '  ')) / columns));
  }

  private moveToEnd(): void {
    const down = this.renderedRows - 1 - this.cursorRow;
    if (down > 0) this.write(`\u001b[${down}B`);
  }

  private render(): void {
    if (!this.finish) return;
    const columns = Math.max(1, this.columns());
    // Back to the first row of what was drawn last, then clear it all and draw again.
    let out = this.cursorRow > 0 ? `\u001b[${this.cursorRow}A` : '';
    out += '\r\u001b[J';
    const search = this.search;
    const match = search ? this.history[search.index] : undefined;
    const shownBuffer = search
      ? match !== undefined && search.query && match.includes(search.query)
        ? match
        : ''
      : this.buffer;
    const shownCursor = search ? shownBuffer.length : this.cursor;
    const savedPrompt = this.prompt;
    if (search)
      this.prompt = `(history search) ${search.query}${shownBuffer || !search.query ? '' : ' (no match)'}: `;
    const display = shownBuffer.replace(/\t/g, '  ');
    const lines = this.lines(display);
    out += lines.join('\r\n');
    let rows = lines.reduce((sum, line) => sum + this.rowsOf(line), 0);
    if (this.hint) {
      // The hint goes below the line; the cursor comes back up to where it edits.
      const hint = this.helpers.dim ? this.helpers.dim(this.hint) : this.hint;
      out += `\r\n${hint}`;
      rows += this.rowsOf(this.hint);
    }
    const beforeCursor = this.lines(shownBuffer.slice(0, shownCursor).replace(/\t/g, '  '));
    this.prompt = savedPrompt;
    const cursorLine = beforeCursor.at(-1) ?? '';
    const rowsAbove = beforeCursor.slice(0, -1).reduce((sum, line) => sum + this.rowsOf(line), 0);
    const cursorWidth = terminalTextWidth(cursorLine);
    const cursorRow = Math.min(rows - 1, rowsAbove + Math.floor(cursorWidth / columns));
    const cursorColumn = Math.min(columns - 1, cursorWidth % columns);
    const up = rows - 1 - cursorRow;
    out += `\r${up > 0 ? `\u001b[${up}A` : ''}${cursorColumn > 0 ? `\u001b[${cursorColumn}C` : ''}`;
    this.write(out);
    this.renderedRows = rows;
    this.cursorRow = cursorRow;
  }
}

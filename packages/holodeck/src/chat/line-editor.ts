import { terminalTextWidth } from './terminal-text-width.js';

/** A key as Node's keypress parser reports it (`readline.emitKeypressEvents`). */
export interface Key {
  name?: string;
  sequence?: string;
  ctrl?: boolean;
  meta?: boolean;
  shift?: boolean;
}

/** How reading one message ended. */
export type LineResult = { kind: 'line'; text: string } | { kind: 'interrupt' } | { kind: 'eof' };

const CONTINUATION = '… ';

/**
 * The prompt's line editor, on raw keys: cursor keys, Home/End, Ctrl+A/E (start/end of the line),
 * Ctrl+W (word), Ctrl+U/K (to start/end of the line), ↑/↓ through `history` (or between the lines
 * of a multi-line message), Ctrl+L (clear screen). A paste (bracketed paste) is inserted as is,
 * newlines included, so it becomes one message; Alt+Enter or Ctrl+J insert a newline, and so does
 * Enter after a trailing `\`. Enter sends; Ctrl+C clears the line, or on an empty line ends the
 * chat (`interrupt`); Ctrl+D on an empty line is end of input.
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

  constructor(
    private readonly write: (text: string) => void,
    private readonly columns: () => number,
    private readonly history: string[],
  ) {}

  get active(): boolean {
    return this.finish !== undefined;
  }

  read(prompt: string, useHistory = true): Promise<LineResult> {
    this.prompt = prompt;
    this.buffer = '';
    this.cursor = 0;
    this.renderedRows = 0;
    this.cursorRow = 0;
    this.historyIndex = useHistory ? this.history.length : -1;
    this.draft = '';
    const line = new Promise<LineResult>((resolve) => {
      this.finish = resolve;
    });
    this.render();
    return line;
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
    if (key.ctrl) {
      this.control(name);
      return;
    }
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
      case 'tab':
        if (name === 'tab') this.insert('  ');
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
      case 'c':
        if (!this.buffer) {
          this.done({ kind: 'interrupt' });
          return;
        }
        this.buffer = '';
        this.cursor = 0;
        this.render();
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
    const display = this.buffer.replace(/\t/g, '  ');
    const lines = this.lines(display);
    out += lines.join('\r\n');
    const rows = lines.reduce((sum, line) => sum + this.rowsOf(line), 0);
    const beforeCursor = this.lines(this.buffer.slice(0, this.cursor).replace(/\t/g, '  '));
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

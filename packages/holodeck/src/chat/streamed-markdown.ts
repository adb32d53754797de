import type { ChatStyle } from './chat-style.js';
import { neutraliseTerminalText } from './neutralise-terminal-text.js';
import { renderMarkdown } from './render-markdown.js';
import { terminalTextWidth } from './terminal-text-width.js';

/** Where the blocks of `text` that can no longer change end: after a blank line or a closed fence. */
function settledEnd(text: string): number {
  let fence: string | undefined;
  let settled = 0;
  let offset = 0;
  const lines = text.split('\n');
  // The last piece has no newline yet: it may still grow.
  for (const line of lines.slice(0, -1)) {
    offset += line.length + 1;
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (
        marker &&
        marker[0] === fence[0] &&
        marker.length >= fence.length &&
        !line.trim().slice(marker.length)
      )
        fence = undefined;
      if (!fence) settled = offset;
      continue;
    }
    if (marker) fence = marker;
    else if (!line.trim()) settled = offset;
  }
  return settled;
}

/**
 * An answer rendered as markdown while it streams: every finished block (ended by a blank line or
 * a closing code fence) is printed once, rendered; only the block still being written is redrawn
 * as text arrives, so the screen never jumps back over the whole answer. A block too tall to
 * redraw on the screen is left as printed and the rest of it is written as it comes.
 */
export class StreamedMarkdown {
  private text = '';
  private settled = 0;
  /** Rows of the block being written, as drawn last. */
  private liveRows = 0;
  private gap = false;
  private raw = false;

  constructor(
    private readonly style: ChatStyle,
    private readonly columns: () => number,
    private readonly rows: () => number,
  ) {}

  get empty(): boolean {
    return this.text === '';
  }

  /** Text to write for a delta of the answer. */
  append(delta: string): string {
    const piece = neutraliseTerminalText(delta);
    this.text += piece;
    if (this.raw) return piece.replace(/\n/g, '\r\n');
    const end = settledEnd(this.text);
    let out = this.eraseLive();
    if (end > this.settled) {
      out += this.block(this.text.slice(this.settled, end));
      this.settled = end;
    }
    return out + this.drawLive();
  }

  /** Text to write when the answer is complete: its last block, rendered, and the end of the line. */
  end(): string {
    if (this.raw) {
      this.reset();
      return '\r\n';
    }
    const out = this.eraseLive() + this.block(this.text.slice(this.settled));
    this.reset();
    return out;
  }

  private reset(): void {
    this.text = '';
    this.settled = 0;
    this.liveRows = 0;
    this.gap = false;
    this.raw = false;
  }

  private render(markdown: string): string[] {
    return renderMarkdown(markdown, Math.max(1, this.columns() - 1), this.style).split('\n');
  }

  private rowsOf(lines: string[]): number {
    const columns = Math.max(1, this.columns());
    return lines.reduce((sum, line) => sum + Math.max(1, Math.ceil(terminalTextWidth(line) / columns)), 0);
  }

  /** A finished block, printed for good (a blank line before it when one came before). */
  private block(markdown: string): string {
    if (!markdown.trim()) return '';
    const lines = this.render(markdown);
    const out = `${this.gap ? '\r\n' : ''}${lines.join('\r\n')}\r\n`;
    this.gap = true;
    return out;
  }

  private eraseLive(): string {
    if (this.liveRows === 0) return '';
    const up = this.liveRows - 1;
    this.liveRows = 0;
    return `\r${up > 0 ? `\u001b[${up}A` : ''}\u001b[J`;
  }

  private drawLive(): string {
    const live = this.text.slice(this.settled);
    if (!live.trim()) return '';
    const lines = this.render(live);
    const gap = this.gap ? 1 : 0;
    if (this.rowsOf(lines) + gap >= this.rows() - 1) {
      // Too tall to redraw: printed as it stands, and the rest of the answer as it streams.
      this.raw = true;
      const out = `${this.gap ? '\r\n' : ''}${lines.join('\r\n')}`;
      this.gap = false;
      return out;
    }
    this.liveRows = this.rowsOf(lines) + gap;
    return `${this.gap ? '\r\n' : ''}${lines.join('\r\n')}`;
  }
}

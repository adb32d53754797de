import xterm from '@xterm/headless';
import type { ChatScreen } from '../../../src/chat/turn-view.js';

/**
 * A terminal screen for unit tests of the chat's views: what they write goes through a headless
 * xterm, so a test reads the screen as a user would see it (cursor moves and clears applied).
 */
export interface VirtualScreen extends ChatScreen {
  /** Every row of the screen and scrollback, trailing blanks trimmed, after all writes are drawn. */
  lines(): Promise<string[]>;
  /** Everything written, raw. */
  readonly written: string[];
}

export function virtualScreen(columns = 80, rows = 24): VirtualScreen {
  const terminal = new xterm.Terminal({ cols: columns, rows, scrollback: 500, allowProposedApi: true });
  const written: string[] = [];
  let drawn: Promise<void> = Promise.resolve();
  return {
    written,
    columns: () => columns,
    rows: () => rows,
    write(text) {
      written.push(text);
      drawn = drawn.then(() => new Promise<void>((resolve) => terminal.write(text, resolve)));
    },
    async lines() {
      await drawn;
      const buffer = terminal.buffer.active;
      const out: string[] = [];
      for (let index = 0; index < buffer.length; index++)
        out.push(buffer.getLine(index)?.translateToString(true) ?? '');
      while (out.length && out.at(-1) === '') out.pop();
      return out;
    },
  };
}

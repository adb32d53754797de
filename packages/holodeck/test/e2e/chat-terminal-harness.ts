import { waitUntil } from '@holodeck/testkit';
import { type IPty, spawn as spawnPty } from '@lydell/node-pty';
import xterm from '@xterm/headless';
import { HOLODECK_BIN } from './support/run-holodeck-cli.js';

/** `holodeck chat` in a real pseudo-terminal, with the screen as a terminal would show it. */
export interface ChatTerminal {
  readonly pty: IPty;
  /** Everything on the screen and in the scrollback, one string per row, trailing blanks trimmed. */
  screen(): string;
  /** The same as logical lines: a row the terminal wrapped is joined to the next, as it was written. */
  text(): string;
  /** Types text as keys (a string may hold escape sequences). */
  type(text: string): void;
  /** Pastes text as one bracketed paste. */
  paste(text: string): void;
  /** Waits until the screen's logical lines (`text()`) match (or fails with the screen). */
  waitFor(pattern: RegExp | string, timeoutMs?: number): Promise<void>;
  exited: Promise<{ exitCode: number; signal?: number }>;
  kill(signal?: string): void;
}

export function startChatTerminal(
  args: string[],
  env: Record<string, string>,
  cwd?: string,
  size: { cols?: number; rows?: number } = {},
): ChatTerminal {
  const cols = size.cols ?? 100;
  const rows = size.rows ?? 30;
  const terminal = new xterm.Terminal({ cols, rows, scrollback: 2000, allowProposedApi: true });
  const pty = spawnPty(process.execPath, [HOLODECK_BIN, 'chat', ...args], {
    name: 'xterm-256color',
    cols,
    rows,
    env: { TERM: 'xterm-256color', NO_COLOR: '1', ...env },
    ...(cwd ? { cwd } : {}),
  });
  pty.onData((data) => terminal.write(data));
  // xterm parses what it is given asynchronously: once the process exited, wait until the screen
  // shows all it wrote (an empty write's callback runs after every write before it).
  const exit = new Promise<{ exitCode: number; signal?: number }>((resolve) => pty.onExit(resolve)).then(
    (outcome) => new Promise<typeof outcome>((resolve) => terminal.write('', () => resolve(outcome))),
  );
  const screen = () => {
    const buffer = terminal.buffer.active;
    const rows: string[] = [];
    for (let index = 0; index < buffer.length; index++) {
      rows.push(buffer.getLine(index)?.translateToString(true) ?? '');
    }
    return rows.join('\n').replace(/\n+$/, '');
  };
  const text = () => {
    const buffer = terminal.buffer.active;
    let out = '';
    for (let index = 0; index < buffer.length; index++) {
      const line = buffer.getLine(index);
      const wrapsOn = buffer.getLine(index + 1)?.isWrapped === true;
      // A wrapped row is full to the last column: keep its trailing blanks, they were written.
      out += (line?.translateToString(!wrapsOn) ?? '') + (wrapsOn ? '' : '\n');
    }
    return out.replace(/\n+$/, '');
  };
  return {
    pty,
    screen,
    text,
    type: (text) => pty.write(text),
    paste: (text) => pty.write(`\u001b[200~${text}\u001b[201~`),
    async waitFor(pattern, timeoutMs = 20_000) {
      const matches = () => (typeof pattern === 'string' ? text().includes(pattern) : pattern.test(text()));
      await waitUntil(matches, { timeoutMs, what: `the screen to show ${String(pattern)}` }).catch(
        (error: Error) => {
          throw new Error(`${error.message}:\n${screen()}`);
        },
      );
    },
    get exited() {
      return Promise.race([
        exit,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`holodeck did not exit:\n${screen()}`)), 15_000).unref(),
        ),
      ]);
    },
    kill: (signal) => pty.kill(signal),
  };
}

import type { ExecutionResult, SessionEvent } from '../backends/contract/index.js';
import type { ChatStyle } from './chat-style.js';
import { describeElicitationOutcome } from './elicitation-view.js';
import { describePendingHold, describeResolvedHold, holdWaitText } from './hold-view.js';
import { neutraliseTerminalText } from './neutralise-terminal-text.js';
import { shownToolName } from './shown-tool-name.js';
import { StreamedMarkdown } from './streamed-markdown.js';
import { terminalTextWidth, wrapForTerminal } from './terminal-text-width.js';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** The terminal the chat draws on. */
export interface ChatScreen {
  write(text: string): void;
  columns(): number;
  rows(): number;
}

/** Short arguments of a tool call for its one line: `key=value` pairs cut to fit. */
export function shortArguments(args: Record<string, unknown>, room: number): string {
  const text = Object.entries(args)
    .map(
      ([key, value]) => `${key}=${typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value)}`,
    )
    .join(' ');
  const flat = neutraliseTerminalText(text).replace(/\s+/g, ' ');
  return flat.length > room ? `${flat.slice(0, Math.max(0, room - 1))}…` : flat;
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms}ms` : `${(ms / 1000).toFixed(1)}s`;
}

/**
 * Draws one turn: a spinner while the model thinks or a tool runs, the text as markdown fitted to
 * the width while it streams (`StreamedMarkdown`), one line per tool call with its outcome and
 * duration. Everything from the model or tools is neutralised first.
 */
export class TurnView {
  private spinnerTimer: NodeJS.Timeout | undefined;
  private spinnerFrame = 0;
  private spinnerText: string | (() => string) = '';
  private spinnerShown = false;
  private readonly answer: StreamedMarkdown;
  private readonly calls = new Map<
    string,
    { name: string; args: Record<string, unknown>; startedAt: number }
  >();

  constructor(
    private readonly screen: ChatScreen,
    private readonly style: ChatStyle,
  ) {
    this.answer = new StreamedMarkdown(
      style,
      () => screen.columns(),
      () => screen.rows(),
    );
  }

  start(): void {
    this.spin('thinking');
  }

  /** Draws one event; returns nothing: approvals are the caller's. */
  accept(event: SessionEvent): void {
    switch (event.type) {
      case 'text-delta':
        this.hideSpinner();
        this.spinnerText = '';
        this.screen.write(this.answer.append(event.text));
        return;
      case 'thinking-delta':
        if (this.answer.empty) this.spin('thinking');
        return;
      case 'tool-call':
        this.endText();
        this.calls.set(event.callId, { name: event.name, args: event.arguments, startedAt: Date.now() });
        this.spin(`running ${shownToolName(event.name)}`);
        return;
      case 'tool-result': {
        const call = this.calls.get(event.callId);
        this.calls.delete(event.callId);
        const refused =
          event.isError && /denied|refused|needs approval|not allowed|Novarch/i.test(event.result);
        const mark = !event.isError
          ? this.style.green('✓')
          : refused
            ? this.style.yellow('⊘')
            : this.style.red('✗');
        const status = !event.isError ? 'done' : refused ? 'refused' : 'failed';
        const took = call ? formatDuration(Date.now() - call.startedAt) : '';
        const name = shownToolName(event.name);
        const head = `${mark} ${this.style.bold(name)}`;
        const tail = ` ${status}${took ? ` ${took}` : ''}`;
        const room = this.screen.columns() - terminalTextWidth(head) - terminalTextWidth(tail) - 4;
        this.line(
          `${head} ${this.style.dim(shortArguments(call?.args ?? {}, Math.max(10, room)))}${this.style.dim(tail)}`,
        );
        this.spin('thinking');
        return;
      }
      case 'hold-pending': {
        this.endText();
        this.line(describePendingHold(event.hold, this.style), false);
        const { hold } = event;
        this.spin(() => holdWaitText(hold, Date.now()));
        return;
      }
      case 'hold-resolved':
        this.line(describeResolvedHold(event.hold, this.style));
        this.spin(
          event.hold.status === 'approved' ? `running ${shownToolName(event.hold.toolName)}` : 'thinking',
        );
        return;
      case 'error':
        this.endText();
        this.line(`${this.style.red('error')} ${neutraliseTerminalText(event.message)}`);
        return;
      case 'elicitation-resolved':
        this.endText();
        this.line(
          `${event.elicitation.action === 'accept' ? this.style.green('✓') : this.style.yellow('⊘')} ${describeElicitationOutcome(event.elicitation)}`,
        );
        return;
      case 'session-start':
      case 'approval-request':
      case 'elicitation-request':
      case 'finish':
        return;
    }
  }

  /**
   * Prints a line (or several) above the spinner, word-wrapped to the width; `wrap: false` for
   * commands to copy (the terminal wraps them softly, so they paste as one line).
   */
  line(text: string, wrap = true): void {
    const shown = this.spinnerShown;
    this.hideSpinner();
    const fitted = wrap ? wrapForTerminal(text, this.screen.columns()) : text;
    this.screen.write(`${fitted.replace(/\r?\n/g, '\r\n')}\r\n`);
    if (shown) this.drawSpinner();
  }

  /** The turn ended: the last text as markdown, then the dim line of usage. */
  finish(_result: ExecutionResult | undefined, footer: string): void {
    this.stopSpinner();
    this.endText();
    this.screen.write(
      `${wrapForTerminal(this.style.dim(footer), this.screen.columns()).replace(/\n/g, '\r\n')}\r\n`,
    );
  }

  stopSpinner(): void {
    this.hideSpinner();
    if (this.spinnerTimer) clearInterval(this.spinnerTimer);
    this.spinnerTimer = undefined;
    this.spinnerText = '';
  }

  /** The answer so far is complete: its last block drawn, its line ended. */
  private endText(): void {
    if (this.answer.empty) return;
    this.screen.write(this.answer.end());
  }

  private spin(text: string | (() => string)): void {
    this.spinnerText = text;
    if (!this.spinnerTimer) {
      this.spinnerTimer = setInterval(() => {
        this.spinnerFrame = (this.spinnerFrame + 1) % SPINNER.length;
        if (this.spinnerShown) this.drawSpinner();
      }, 100);
      this.spinnerTimer.unref();
    }
    if (this.answer.empty) this.drawSpinner();
  }

  private drawSpinner(): void {
    if (!this.spinnerText || !this.answer.empty) return;
    const text = typeof this.spinnerText === 'function' ? this.spinnerText() : this.spinnerText;
    this.screen.write(
      `\r\u001b[K${this.style.cyan(SPINNER[this.spinnerFrame] ?? '')} ${this.style.dim(`${text}…`)}`,
    );
    this.spinnerShown = true;
  }

  private hideSpinner(): void {
    if (!this.spinnerShown) return;
    this.screen.write('\r\u001b[K');
    this.spinnerShown = false;
  }
}

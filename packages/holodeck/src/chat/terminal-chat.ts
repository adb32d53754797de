import { emitKeypressEvents } from 'node:readline';
import type {
  AgentSession,
  ApprovalDecision,
  ApprovalRequest,
  BackendWarning,
  ExecutionResult,
} from '../backends/contract/index.js';
import { selectBackend } from '../backends/select-backend.js';
import { loadAgent } from '../load-agent.js';
import { errorMessage } from '../support.js';
import { describeApproval } from './approval-view.js';
import { type ChatStyle, createChatStyle } from './chat-style.js';
import { saveTranscript, type Transcript, type TranscriptTurn } from './chat-transcript.js';
import { describeTools } from './describe-tools.js';
import { type Key, LineEditor } from './line-editor.js';
import { neutraliseTerminalText } from './neutralise-terminal-text.js';
import { appendPromptHistory, readPromptHistory } from './prompt-history.js';
import { describeCommands, KEYS_HELP, parsePromptInput } from './slash-commands.js';
import { type ChatScreen, TurnView } from './turn-view.js';
import { contextWindow, turnFooter, UsageSummary } from './usage-summary.js';

/** The terminal of a TTY chat. */
export interface TerminalChatIO {
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  /** Colours on (a TTY without NO_COLOR). */
  colour: boolean;
}

export interface TerminalChatOptions {
  resume?: string;
  env?: Record<string, string | undefined>;
  onWarnings?: (warnings: BackendWarning[]) => void;
  /** Ends the chat (SIGTERM): the turn in flight is stopped and the session closed. */
  signal?: AbortSignal;
  /** How `holodeck` was called, for the resume hint. */
  command?: string;
}

/** How the chat ended. */
export interface TerminalChatOutcome {
  sessionId: string | undefined;
  /** Ended by a signal (SIGTERM, SIGHUP) rather than by the user. */
  signalled: boolean;
}

/**
 * The chat on a terminal: a line editor with per-agent history, streamed answers rendered as
 * markdown, tool calls on one line each, approvals asked through the session's `approval-request`
 * events, Ctrl+C to interrupt a turn (the session goes on), and HoloDeck's slash commands.
 */
export async function runTerminalChat(
  agentFile: string,
  io: TerminalChatIO,
  options: TerminalChatOptions = {},
): Promise<TerminalChatOutcome> {
  const agent = await loadAgent(agentFile, options.env ? { env: options.env } : {});
  const style = createChatStyle(io.colour);
  const screen: ChatScreen = {
    write: (text) => io.output.write(text),
    columns: () => io.output.columns || 80,
    rows: () => io.output.rows || 24,
  };
  const backend = selectBackend(agent);
  const history = readPromptHistory(agent.directory);
  const editor = new LineEditor(screen.write, screen.columns, history);
  const ended = new AbortController();
  let signalled = false;
  const endBySignal = () => {
    signalled = true;
    ended.abort();
  };
  options.signal?.addEventListener('abort', endBySignal, { once: true });
  process.on('SIGHUP', endBySignal);
  let session: AgentSession | undefined;
  let onKey: ((text: string | undefined, key: Key) => void) | undefined;
  const keypress = (text: string | undefined, key: Key | undefined) => onKey?.(text, key ?? {});
  emitKeypressEvents(io.input);
  io.input.setRawMode(true);
  io.output.write('\u001b[?2004h'); // bracketed paste: a paste arrives marked, as one message
  io.input.on('keypress', keypress);
  io.input.resume();
  try {
    await backend.initialize();
    options.onWarnings?.([
      ...agent.warnings.map((warning) => ({ code: warning.code, message: warning.message })),
      ...backend.warnings,
    ]);
    session = await backend.createSession({
      approvals: 'ask',
      ...(options.resume ? { resume: options.resume } : {}),
    });
    const chat = new ChatLoop(
      agent.config,
      agent.directory,
      session,
      backend,
      editor,
      screen,
      style,
      history,
      ended.signal,
    );
    onKey = (text, key) => chat.key(text, key);
    screen.write(
      `${style.bold(neutraliseTerminalText(agent.config.name))} ${style.dim(`(${agent.config.model.provider} ${agent.config.model.name})`)}\r\n` +
        `${style.dim('/help for commands · Ctrl+C interrupts · Ctrl+D or /exit ends')}\r\n`,
    );
    await chat.run();
    const sessionId = session.sessionId;
    return { sessionId, signalled };
  } finally {
    onKey = undefined;
    io.input.off('keypress', keypress);
    io.output.write('\u001b[?2004l');
    io.input.setRawMode(false);
    io.input.pause();
    process.off('SIGHUP', endBySignal);
    options.signal?.removeEventListener('abort', endBySignal);
    const sessionId = session?.sessionId;
    await session?.close();
    await backend.teardown();
    if (sessionId) {
      const command = options.command ?? `holodeck chat ${agentFile}`;
      io.output.write(
        `${style.dim(`Session ${sessionId} — resume with: ${command} --resume ${sessionId}`)}\r\n`,
      );
    }
  }
}

type Mode =
  | { kind: 'prompt' }
  | { kind: 'turn'; view: TurnView }
  | { kind: 'approval'; request: ApprovalRequest; view: TurnView }
  | { kind: 'idle' };

/** The conversation itself: prompt, commands, turns and approvals, one at a time. */
class ChatLoop {
  private mode: Mode = { kind: 'idle' };
  private readonly usage = new UsageSummary();
  private turns: TranscriptTurn[] = [];
  private offered: string[] | undefined;
  private interrupted = false;
  private stopEnd: (() => void) | undefined;
  /** Keys typed while a turn runs: replayed into the next prompt (type-ahead), never into an approval. */
  private typeAhead: { text: string | undefined; key: Key }[] = [];

  constructor(
    private readonly config: import('../config/index.js').AgentConfig,
    private readonly directory: string,
    private readonly session: AgentSession,
    private readonly backend: import('../backends/contract/index.js').AgentBackend,
    private readonly editor: LineEditor,
    private readonly screen: ChatScreen,
    private readonly style: ChatStyle,
    private readonly history: string[],
    private readonly ended: AbortSignal,
  ) {}

  key(text: string | undefined, key: Key): void {
    const mode = this.mode;
    if (mode.kind === 'prompt' || (mode.kind === 'approval' && this.editor.active)) {
      this.editor.key(text, key);
      return;
    }
    if (mode.kind === 'turn' && key.ctrl && key.name === 'c') {
      this.interrupt(mode.view);
      return;
    }
    if (mode.kind === 'approval') {
      this.approvalKey(mode, text, key);
      return;
    }
    if (this.typeAhead.length < 4096) this.typeAhead.push({ text, key });
  }

  async run(): Promise<void> {
    const end = new Promise<'ended'>((resolve) => {
      if (this.ended.aborted) resolve('ended');
      const onEnd = () => resolve('ended');
      this.ended.addEventListener('abort', onEnd, { once: true });
      this.stopEnd = () => this.ended.removeEventListener('abort', onEnd);
    });
    try {
      for (;;) {
        this.mode = { kind: 'prompt' };
        const reading = this.editor.read(this.style.bold('> '));
        for (const typed of this.typeAhead.splice(0)) this.editor.key(typed.text, typed.key);
        const read = await Promise.race([reading, end]);
        if (read === 'ended' || read.kind !== 'line') return;
        const input = parsePromptInput(read.text);
        this.mode = { kind: 'idle' };
        if (input.kind === 'empty') continue;
        appendPromptHistory(this.directory, this.history, read.text);
        if (input.kind === 'unknown-command') {
          this.print(
            `${this.style.yellow(`Unknown command ${neutraliseTerminalText(input.word)}.`)} Commands:\n${describeCommands()}`,
          );
          continue;
        }
        if (input.kind === 'command') {
          if (input.name === 'exit' || input.name === 'quit') return;
          await this.command(input.name, input.argument);
          continue;
        }
        if ((await Promise.race([this.turn(input.text), end])) === 'ended') return;
      }
    } finally {
      this.stopEnd?.();
      if (this.mode.kind === 'turn' || this.mode.kind === 'approval') this.mode.view.stopSpinner();
    }
  }

  private print(text: string): void {
    this.screen.write(`${text.replace(/\r?\n/g, '\r\n')}\r\n`);
  }

  private async command(name: string, argument: string): Promise<void> {
    switch (name) {
      case 'help':
        this.print(`Commands:\n${describeCommands()}\n${this.style.dim(KEYS_HELP)}`);
        return;
      case 'clear':
        await this.session.reset();
        this.turns = [];
        this.print(this.style.dim('New conversation: the agent remembers nothing of the last one.'));
        return;
      case 'tools': {
        const offered = this.offered ?? (await this.backend.listTools()).map((tool) => tool.name);
        this.print(describeTools(this.config, offered));
        return;
      }
      case 'usage':
        this.print(this.usage.describe());
        return;
      case 'save': {
        const file = argument || `holodeck-chat-${this.session.sessionId ?? 'new'}.md`;
        const transcript: Transcript = {
          agent: this.config.name,
          session_id: this.session.sessionId,
          saved_at: new Date().toISOString(),
          turns: this.turns,
        };
        try {
          const written = await saveTranscript(transcript, file);
          this.print(this.style.dim(`Saved ${this.turns.length} turn(s) to ${written}`));
          return;
        } catch (error) {
          return this.print(`${this.style.red('error')} could not save to ${file}: ${errorMessage(error)}`);
        }
      }
    }
  }

  private async turn(message: string): Promise<void> {
    const view = new TurnView(this.screen, this.style);
    this.mode = { kind: 'turn', view };
    this.interrupted = false;
    const record: TranscriptTurn = { user: message, assistant: '', tool_calls: [], interrupted: false };
    this.turns.push(record);
    let result: ExecutionResult | undefined;
    view.start();
    try {
      for await (const event of this.session.sendStreaming(message)) {
        if (event.type === 'session-start') this.offered = event.tools;
        if (event.type === 'text-delta') record.assistant += event.text;
        if (event.type === 'tool-call')
          record.tool_calls.push({ name: event.name, arguments: event.arguments });
        if (event.type === 'tool-result') {
          const call = record.tool_calls.findLast((entry) => entry.result === undefined);
          if (call) Object.assign(call, { result: event.result, is_error: event.isError });
        }
        if (event.type === 'finish') result = event.result;
        if (event.type === 'approval-request') {
          this.approve(event.request, view);
          continue;
        }
        if (event.type === 'error' && this.interrupted) continue;
        view.accept(event);
      }
    } catch (error) {
      view.line(`${this.style.red('error')} ${neutraliseTerminalText(errorMessage(error))}`);
    } finally {
      this.mode = { kind: 'idle' };
    }
    record.interrupted = this.interrupted;
    if (result) {
      this.usage.add(result);
      record.token_usage = result.token_usage;
      record.cost_usd = result.cost_usd;
      const footer = turnFooter(result, contextWindow(this.config.model.provider));
      view.finish(result, `${this.interrupted ? '  (interrupted)' : ''}${footer.text}`);
      if (footer.warning) this.print(this.style.yellow(`warning ${footer.warning}`));
    } else {
      view.finish(undefined, this.interrupted ? '  (interrupted)' : '  (the turn ended without a result)');
    }
  }

  private interrupt(view: TurnView): void {
    if (this.interrupted) return;
    this.interrupted = true;
    view.line(this.style.yellow('⏹ interrupting…'));
    void this.session.interrupt().catch(() => {});
  }

  private approve(request: ApprovalRequest, view: TurnView): void {
    view.stopSpinner();
    // What was typed before the question is not an answer to it.
    this.typeAhead = [];
    this.mode = { kind: 'approval', request, view };
    this.print(describeApproval(request, this.style, this.screen.columns()));
    this.screen.write(
      `${this.style.bold('Allow?')} ${this.style.dim('[y] once · [a] for this session · [n] deny with a reason · Ctrl+C interrupts')} `,
    );
  }

  private approvalKey(mode: Extract<Mode, { kind: 'approval' }>, text: string | undefined, key: Key): void {
    const answer = (decision: ApprovalDecision, label: string) => {
      this.screen.write(`${label}\r\n`);
      mode.request.respond(decision);
      this.mode = { kind: 'turn', view: mode.view };
      mode.view.start();
    };
    if (key.ctrl && key.name === 'c') {
      this.screen.write('\r\n');
      mode.request.respond({ behavior: 'deny', reason: 'the user interrupted the turn' });
      this.mode = { kind: 'turn', view: mode.view };
      this.interrupt(mode.view);
      return;
    }
    const choice = (text ?? '').toLowerCase();
    if (choice === 'y') {
      answer({ behavior: 'allow', scope: 'once' }, this.style.green('allowed once'));
      return;
    }
    if (choice === 'a') {
      answer(
        { behavior: 'allow', scope: 'session' },
        this.style.green(`allowed ${neutraliseTerminalText(mode.request.toolName)} for this session`),
      );
      return;
    }
    if (choice === 'n') {
      this.screen.write('\r\n');
      void this.editor.read(this.style.bold('Reason (the agent is told): '), false).then((read) => {
        const reason = read.kind === 'line' && read.text.trim() ? read.text.trim() : 'no reason given';
        mode.request.respond({ behavior: 'deny', reason });
        this.screen.write(`${this.style.yellow('denied')}\r\n`);
        this.mode = { kind: 'turn', view: mode.view };
        mode.view.start();
      });
    }
  }
}

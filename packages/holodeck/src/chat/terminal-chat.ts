import path from 'node:path';
import { emitKeypressEvents } from 'node:readline';
import type {
  AgentSession,
  ApprovalDecision,
  ApprovalRequest,
  BackendWarning,
  ElicitationRequest,
  ExecutionResult,
} from '../backends/contract/index.js';
import { selectBackend } from '../backends/select-backend.js';
import type { LoadedAgent } from '../config/index.js';
import { loadAgent } from '../load-agent.js';
import type { ChatRecording } from '../recording/chat-recording.js';
import { errorMessage } from '../support.js';
import { describeApproval, type ShownDiffLine } from './approval-view.js';
import { backendWarningOf } from './backend-warning-of.js';
import { type ChatStyle, createChatStyle, terminalSupportsHyperlinks } from './chat-style.js';
import { saveTranscript, type Transcript, type TranscriptTurn } from './chat-transcript.js';
import { describeTools } from './describe-tools.js';
import { editInExternalEditor } from './external-editor.js';
import { type Key, LineEditor } from './line-editor.js';
import { neutraliseTerminalText } from './neutralise-terminal-text.js';
import { appendPromptHistory, readPromptHistory } from './prompt-history.js';
import { readSavedApprovals, saveAlwaysAllowed, savedApprovalsPath } from './saved-approvals.js';
import { shownToolName } from './shown-tool-name.js';
import { describeCommands, KEYS_HELP, parsePromptInput, SLASH_COMMANDS } from './slash-commands.js';
import { wrapForTerminal } from './terminal-text-width.js';
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
  /** `--record`/`--replay`: the model traffic of this chat is recorded or replayed, a turn per message. */
  recording?: ChatRecording;
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
  const loaded = await loadAgent(agentFile, options.env ? { env: options.env } : {});
  const { recording } = options;
  if (recording) return recording.run(() => terminalChat(recording.agent(loaded), agentFile, io, options));
  return terminalChat(loaded, agentFile, io, options);
}

async function terminalChat(
  agent: LoadedAgent,
  agentFile: string,
  io: TerminalChatIO,
  options: TerminalChatOptions,
): Promise<TerminalChatOutcome> {
  const style = createChatStyle(io.colour, {
    hyperlinks: terminalSupportsHyperlinks(options.env ?? process.env),
  });
  const screen: ChatScreen = {
    write: (text) => io.output.write(text),
    columns: () => io.output.columns || 80,
    rows: () => io.output.rows || 24,
  };
  const backend = selectBackend(agent, options.recording?.backendOptions() ?? {});
  const history = readPromptHistory(agent.directory);
  const editor = new LineEditor(screen.write, screen.columns, history, {
    completions: SLASH_COMMANDS.map((command) => `/${command.name}`),
    dim: style.dim,
    openEditor: (text) => {
      // The editor owns the terminal until it exits: cooked mode, no bracketed paste.
      io.output.write('\u001b[?2004l');
      io.input.setRawMode(false);
      try {
        return editInExternalEditor(text);
      } finally {
        io.input.setRawMode(true);
        io.output.write('\u001b[?2004h');
      }
    },
  });
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
    options.onWarnings?.([...agent.warnings.map(backendWarningOf), ...backend.warnings]);
    session = await backend.createSession({
      approvals: 'ask',
      elicitations: 'ask',
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
      options.recording,
    );
    onKey = (text, key) => chat.key(text, key);
    const header =
      `${style.bold(neutraliseTerminalText(agent.config.name))} ${style.dim(`(${agent.config.model.provider} ${agent.config.model.name})`)}\n` +
      style.dim('/help for commands · Ctrl+C or Esc interrupts · Ctrl+D or /exit ends');
    screen.write(`${wrapForTerminal(header, screen.columns()).replace(/\n/g, '\r\n')}\r\n`);
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
  | { kind: 'elicitation'; view: TurnView }
  | { kind: 'idle' };

/** The conversation itself: prompt, commands, turns and approvals, one at a time. */
class ChatLoop {
  private mode: Mode = { kind: 'idle' };
  private readonly usage = new UsageSummary();
  private turns: TranscriptTurn[] = [];
  private offered: string[] | undefined;
  private interrupted = false;
  /** When the approval being asked was asked, and how long this turn waited for the human. */
  private askedAt: number | undefined;
  private approvalWaitMs = 0;
  /** Messages sent so far: the recording's turn. */
  private sent = 0;
  /** Tools the user always allows for this agent (`.holodeck/chat-approvals.json`). */
  private readonly alwaysAllowed: Set<string>;
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
    private readonly recording: ChatRecording | undefined,
  ) {
    this.alwaysAllowed = readSavedApprovals(directory);
  }

  key(text: string | undefined, key: Key): void {
    const mode = this.mode;
    if (mode.kind === 'elicitation') {
      if (key.name === 'escape') this.editor.cancel();
      else this.editor.key(text, key);
      return;
    }
    if (mode.kind === 'prompt' || (mode.kind === 'approval' && this.editor.active)) {
      this.editor.key(text, key);
      return;
    }
    if (mode.kind === 'turn' && ((key.ctrl && key.name === 'c') || key.name === 'escape')) {
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
      if (this.mode.kind === 'turn' || this.mode.kind === 'approval' || this.mode.kind === 'elicitation')
        this.mode.view.stopSpinner();
    }
  }

  /** Prints text above the prompt, word-wrapped to the terminal's width. */
  private print(text: string): void {
    this.screen.write(`${wrapForTerminal(text, this.screen.columns()).replace(/\r?\n/g, '\r\n')}\r\n`);
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
    this.approvalWaitMs = 0;
    this.recording?.turn(++this.sent);
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
          await this.approve(event.request, view);
          continue;
        }
        if (event.type === 'elicitation-request') {
          await this.elicit(event.request, view);
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
      const footer = turnFooter(result, contextWindow(this.config.model.provider), this.approvalWaitMs);
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

  private async approve(request: ApprovalRequest, view: TurnView): Promise<void> {
    if (this.alwaysAllowed.has(request.toolName)) {
      request.respond({ behavior: 'allow', scope: 'session' });
      view.line(
        this.style.dim(
          `${shownToolName(request.toolName)} allowed: always allowed for this agent (${this.shownPath(savedApprovalsPath(this.directory))})`,
        ),
      );
      return;
    }
    view.stopSpinner();
    // What was typed before the question is not an answer to it.
    this.typeAhead = [];
    const existing = await this.existingFileDiff(request);
    this.mode = { kind: 'approval', request, view };
    this.askedAt = Date.now();
    this.print(describeApproval(request, this.style, this.screen.columns(), existing));
    this.print(
      `${this.style.bold('Allow?')} ${this.style.dim('[y] once · [a] for this session · [t] always for this agent · [n] deny with a reason · Ctrl+C or Esc interrupts')}`,
    );
  }

  /** An MCP server asks the user for input (elicitation-prompt.ts, loaded on use); the wait is not the turn's time. */
  private async elicit(request: ElicitationRequest, view: TurnView): Promise<void> {
    view.stopSpinner();
    this.typeAhead = [];
    this.mode = { kind: 'elicitation', view };
    this.askedAt = Date.now();
    const { askElicitation } = await import('./elicitation-prompt.js');
    const answer = await askElicitation(request, {
      read: (prompt) => this.editor.read(prompt, false),
      print: (text) => this.print(text),
      style: this.style,
    });
    this.answered();
    request.respond(answer);
    this.mode = { kind: 'turn', view };
    view.start();
  }

  /** A `Write` over an existing file: the diff from what it holds now (`existing-file-diff.ts`, loaded on use). */
  private async existingFileDiff(request: ApprovalRequest): Promise<ShownDiffLine[] | undefined> {
    if (request.toolName !== 'Write') return undefined;
    const base = path.resolve(this.directory, this.config.claude?.working_directory ?? '.');
    return (await import('./existing-file-diff.js')).existingFileDiff(request, base);
  }

  /** A path as the user reads it: relative to where the chat runs, when under it. */
  private shownPath(file: string): string {
    const relative = path.relative(process.cwd(), file);
    return relative && !relative.startsWith('..') ? relative : file;
  }

  /** The human answered: the wait is not the turn's time. */
  private answered(): void {
    if (this.askedAt !== undefined) this.approvalWaitMs += Date.now() - this.askedAt;
    this.askedAt = undefined;
  }

  private approvalKey(mode: Extract<Mode, { kind: 'approval' }>, text: string | undefined, key: Key): void {
    const answer = (decision: ApprovalDecision, label: string) => {
      this.answered();
      this.print(label);
      mode.request.respond(decision);
      this.mode = { kind: 'turn', view: mode.view };
      mode.view.start();
    };
    if ((key.ctrl && key.name === 'c') || key.name === 'escape') {
      this.answered();
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
        this.style.green(`allowed ${shownToolName(mode.request.toolName)} for this session`),
      );
      return;
    }
    if (choice === 't') {
      const failed = saveAlwaysAllowed(this.directory, this.alwaysAllowed, mode.request.toolName);
      const name = shownToolName(mode.request.toolName);
      answer(
        { behavior: 'allow', scope: 'session' },
        failed
          ? `${this.style.green(`allowed ${name} for this session`)} ${this.style.yellow(`(not saved: ${neutraliseTerminalText(failed)})`)}`
          : this.style.green(
              `allowed ${name} always for this agent (saved in ${this.shownPath(savedApprovalsPath(this.directory))}; delete it there to be asked again)`,
            ),
      );
      return;
    }
    if (choice === 'n') {
      void this.editor.read(this.style.bold('Reason (the agent is told): '), false).then((read) => {
        this.answered();
        const reason = read.kind === 'line' && read.text.trim() ? read.text.trim() : 'no reason given';
        mode.request.respond({ behavior: 'deny', reason });
        this.print(this.style.yellow('denied'));
        this.mode = { kind: 'turn', view: mode.view };
        mode.view.start();
      });
    }
  }
}

import { createInterface } from 'node:readline/promises';
import { type BackendWarning, NO_APPROVER_REASON, type SessionEvent } from '../backends/contract/index.js';
import { selectBackend } from '../backends/select-backend.js';
import type { LoadedAgent } from '../config/index.js';
import { loadAgent } from '../load-agent.js';
import type { ChatRecording } from '../recording/chat-recording.js';
import { backendWarningOf } from './backend-warning-of.js';
import { describeTools } from './describe-tools.js';
import { describeElicitationOutcome } from './elicitation-view.js';
import { neutraliseTerminalText } from './neutralise-terminal-text.js';
import { describeCommands, parsePromptInput } from './slash-commands.js';
import { UsageSummary } from './usage-summary.js';

export interface InteractiveChatIO {
  input: NodeJS.ReadableStream;
  /** Agent text goes here. */
  output: NodeJS.WritableStream;
  /** Prompts, tool activity and warnings go here. */
  status: (line: string) => void;
  prompt: string;
}

export interface InteractiveChatOptions {
  resume?: string;
  env?: Record<string, string | undefined>;
  onWarnings?: (warnings: BackendWarning[]) => void;
  /** Ends the chat (Ctrl+C): the turn in flight is dropped and the session closed. */
  signal?: AbortSignal;
  /** `--record`/`--replay`: the model traffic of this chat is recorded or replayed. */
  recording?: ChatRecording;
}

/** Renders one stream event for the terminal; returns text for the output stream. */
function render(event: SessionEvent, status: (line: string) => void): string {
  switch (event.type) {
    case 'text-delta':
      return event.text;
    case 'tool-call':
      status(`  → ${event.name} ${JSON.stringify(event.arguments)}`);
      return '';
    case 'tool-result':
      status(`  ← ${event.name}${event.isError ? ' (error)' : ''}: ${event.result.slice(0, 200)}`);
      return '';
    case 'error':
      status(`error: ${event.message}`);
      return '';
    case 'approval-request':
      // Line mode creates its session with approvals refused; a request is answered all the same.
      event.request.respond({
        behavior: 'deny',
        reason: NO_APPROVER_REASON,
      });
      return '';
    case 'elicitation-request':
      // Line mode creates its session with elicitations declined; a request is answered all the same.
      event.request.respond({ action: 'decline' });
      return '';
    case 'elicitation-resolved':
      status(`  ${describeElicitationOutcome(event.elicitation)}`);
      return '';
    case 'hold-pending':
      status(
        `  ⏸ ${event.hold.toolName} is held for an operator (hold ${event.hold.holdId}, rules ${event.hold.ruleIds.join(', ') || 'none'}, deadline ${event.hold.deadline}); approve: ${event.hold.commands.approve}`,
      );
      return '';
    case 'hold-resolved':
      status(
        `  hold ${event.hold.holdId} ${event.hold.status}${event.hold.decidedBy ? ` by ${event.hold.decidedBy}` : ''}${event.hold.rationale ? `: ${event.hold.rationale}` : ''}`,
      );
      return '';
    case 'session-start':
    case 'thinking-delta':
    case 'finish':
      return '';
  }
}

/**
 * A line-based conversation on one session (one CLI process for the whole chat), for piped input:
 * one message per line, plain output. `/exit`, `/quit` or end of input ends it; the session id is
 * reported so it can be resumed. `/help`, `/clear`, `/tools` and `/usage` are answered here (on
 * stderr), never sent to the model; `//text` sends `/text`. Tool calls that need approval are refused with a message naming
 * the setting that allows them (the terminal chat, `terminal-chat.ts`, asks instead).
 */
export async function runInteractiveChat(
  agentFile: string,
  io: InteractiveChatIO,
  options: InteractiveChatOptions = {},
) {
  const loaded = await loadAgent(agentFile, options.env ? { env: options.env } : {});
  const { recording } = options;
  if (recording) return recording.run(() => lineChat(recording.agent(loaded), io, options, recording));
  return lineChat(loaded, io, options);
}

async function lineChat(
  agent: LoadedAgent,
  io: InteractiveChatIO,
  options: InteractiveChatOptions,
  recording?: ChatRecording,
) {
  const backend = selectBackend(agent, recording?.backendOptions() ?? {});
  // Status lines go to stderr, often still a terminal; the answer too when stdout is one.
  const status = (line: string) => io.status(neutraliseTerminalText(line));
  const toTerminal = 'isTTY' in io.output && io.output.isTTY === true;
  const shown = (text: string) => (toTerminal ? neutraliseTerminalText(text) : text);
  try {
    await backend.initialize();
    options.onWarnings?.([...agent.warnings.map(backendWarningOf), ...backend.warnings]);
    // Nobody can answer an approval here: calls that would ask are refused, naming the setting.
    const session = await backend.createSession({
      approvals: 'refuse',
      ...(options.resume ? { resume: options.resume } : {}),
    });
    const lines = createInterface({ input: io.input, terminal: false });
    const stop = () => {
      lines.close();
      void session.close();
    };
    options.signal?.addEventListener('abort', stop, { once: true });
    io.status(`Chatting with ${agent.config.name}. Type /exit to quit.`);
    let failed = false;
    let turn = 0;
    io.status(io.prompt);
    const usage = new UsageSummary();
    let offered: string[] | undefined;
    for await (const line of lines) {
      const input = parsePromptInput(line);
      if (input.kind === 'command' && (input.name === 'exit' || input.name === 'quit')) break;
      // The chat's own commands are answered here, as on a terminal: never billed model turns.
      if (input.kind === 'command' || input.kind === 'unknown-command') {
        if (input.kind === 'unknown-command')
          io.status(`Unknown command ${input.word}. Commands:\n${describeCommands()}`);
        else if (input.name === 'help')
          io.status(`Commands:\n${describeCommands()}\n  //text sends a message that starts with /`);
        else if (input.name === 'clear') {
          await session.reset();
          io.status('New conversation: the agent remembers nothing of the last one.');
        } else if (input.name === 'tools') {
          offered ??= (await backend.listTools()).map((tool) => tool.name);
          io.status(describeTools(agent.config, offered));
        } else if (input.name === 'usage') io.status(usage.describe());
        else io.status(`/${input.name} is for the chat on a terminal`);
        io.status(io.prompt);
        continue;
      }
      if (input.kind === 'message') {
        const message = input.text;
        recording?.turn(++turn);
        try {
          for await (const event of session.sendStreaming(message)) {
            io.output.write(shown(render(event, status)));
            if (event.type === 'session-start') offered = event.tools;
            if (event.type === 'finish') usage.add(event.result);
            if (event.type === 'finish' && event.result.is_error) failed = true;
            // A call refused because it needs approval: said plainly, and the chat exits 3.
            if (event.type === 'tool-result' && event.isError && event.result.includes(NO_APPROVER_REASON)) {
              status(
                `error: ${event.name} was refused: it needs approval and nobody can approve it here (not a terminal). Chat on a terminal to be asked, or let the tool run unasked (on openai/azure_openai/ollama: approval: never on its agent.yaml entry)`,
              );
              failed = true;
            }
          }
        } catch (error) {
          if (!options.signal?.aborted) throw error;
        }
        io.output.write('\n');
      }
      if (options.signal?.aborted) break;
      io.status(io.prompt);
    }
    options.signal?.removeEventListener('abort', stop);
    lines.close();
    const sessionId = session.sessionId;
    await session.close();
    if (sessionId) io.status(`Session ${sessionId} (resume with --resume ${sessionId})`);
    return { sessionId, failed };
  } finally {
    await backend.teardown();
  }
}

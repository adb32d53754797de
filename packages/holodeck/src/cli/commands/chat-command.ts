import type { Command } from 'commander';
import type { BackendWarning } from '../../backends/contract/index.js';
import { neutraliseTerminalText } from '../../chat/neutralise-terminal-text.js';
import { UsageError } from '../../errors.js';
import type { CommandContext } from '../command-context.js';
import { ExitCode, type ExitCodeValue } from '../exit-codes.js';
import type { Style } from '../terminal-style.js';
import { addRecordingOptions, parseRecordingFlags, type RecordingFlags } from './recording-options.js';

export interface ChatOptions extends RecordingFlags {
  prompt?: string;
  json: boolean;
  resume?: string;
  forceIngest?: boolean;
}

function printWarnings(warnings: BackendWarning[], style: Style) {
  for (const warning of warnings) process.stderr.write(`${style.yellow('warning')} ${warning.message}\n`);
}

/**
 * `holodeck chat <file> [-p prompt]`: one answer with -p; otherwise the terminal chat on a TTY
 * (line editing, approvals, slash commands), or a line-based conversation on piped stdin.
 * `signal` (Ctrl+C, SIGTERM) stops the run; the agent's process is ended before this returns.
 */
export async function chatCommand(
  file: string,
  options: ChatOptions,
  style: Style,
  signal: AbortSignal,
): Promise<ExitCodeValue> {
  if (options.json && options.prompt === undefined)
    throw new UsageError(
      '--json',
      'prints the result of one answer, so it needs -p',
      'holodeck chat agent.yaml -p "<message>" --json',
    );
  if (options.prompt !== undefined && options.prompt.trim() === '')
    throw new UsageError('-p', 'the message is empty', 'give the message to send: -p "<message>"');
  if (options.forceIngest)
    await (await import('./ingest-command.js')).forceIngestBeforeRun(file, style, signal);
  const onWarnings = (warnings: BackendWarning[]) => printWarnings(warnings, style);
  const recording = await (await import('./chat-recording-option.js')).chatRecordingOf(
    parseRecordingFlags(options),
    file,
    style,
  );
  // Loaded on use: the Claude SDK is large and `validate`/`schema` do not need it.
  if (options.prompt === undefined && process.stdin.isTTY && process.stdout.isTTY) {
    const { runTerminalChat } = await import('../../chat/terminal-chat.js');
    const outcome = await runTerminalChat(
      file,
      { input: process.stdin, output: process.stdout, colour: style.enabled },
      {
        onWarnings,
        signal,
        command: `holodeck chat ${file}`,
        ...(recording ? { recording } : {}),
        ...(options.resume ? { resume: options.resume } : {}),
      },
    );
    return outcome.signalled ? ExitCode.interrupted : ExitCode.ok;
  }
  if (options.prompt === undefined) {
    const { runInteractiveChat } = await import('../../chat/interactive-chat.js');
    const outcome = await runInteractiveChat(
      file,
      {
        input: process.stdin,
        output: process.stdout,
        status: (line) => process.stderr.write(`${style.dim(line)}\n`),
        prompt: '> ',
      },
      {
        onWarnings,
        signal,
        ...(options.resume ? { resume: options.resume } : {}),
        ...(recording ? { recording } : {}),
      },
    );
    if (signal.aborted) return ExitCode.interrupted;
    return outcome.failed ? ExitCode.execution : ExitCode.ok;
  }
  return oneShot(file, options.prompt, options, style, signal, recording);
}

type ChatRecording = Awaited<ReturnType<typeof import('./chat-recording-option.js')['chatRecordingOf']>>;

/**
 * `-p`: one answer, printed (as JSON with --json); holds and declined MCP requests for input are
 * told on stderr.
 */
async function oneShot(
  file: string,
  prompt: string,
  options: ChatOptions,
  style: Style,
  signal: AbortSignal,
  recording: ChatRecording,
): Promise<ExitCodeValue> {
  const { runOneShot } = await import('../../chat/run-one-shot.js');
  let outcome: Awaited<ReturnType<typeof runOneShot>>;
  try {
    const holds = await import('../../chat/hold-view.js');
    const elicitations = await import('../../chat/elicitation-view.js');
    const holdStyle = (await import('../../chat/chat-style.js')).createChatStyle(style.enabled);
    outcome = await runOneShot(file, prompt, {
      onWarnings: (warnings) => printWarnings(warnings, style),
      signal,
      // A write waiting for an operator says so on stderr: the hold, its deadline, how to decide it.
      onHold: (event) => {
        if (event.type === 'hold-pending')
          process.stderr.write(`${holds.describePendingHold(event.hold, holdStyle)}\n`);
        if (event.type === 'hold-resolved')
          process.stderr.write(`${holds.describeResolvedHold(event.hold, holdStyle)}\n`);
      },
      // An MCP server's request for input is declined here (nobody to ask): say so on stderr.
      onElicitation: (record) => process.stderr.write(`${elicitations.describeElicitationOutcome(record)}\n`),
      ...(options.resume ? { resume: options.resume } : {}),
      ...(recording ? { recording } : {}),
    });
  } catch (error) {
    if (signal.aborted) return ExitCode.interrupted;
    throw error;
  }
  const { result } = outcome;
  if (options.json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } else if (result.is_error) {
    process.stderr.write(
      `${style.red('error')} the agent run failed: ${result.error_reason ?? 'unknown reason'}\n`,
    );
  } else {
    // On a terminal the model's escape sequences are neutralised (no clearing the screen, no
    // title); a pipe gets the answer as it is.
    const response = process.stdout.isTTY ? neutraliseTerminalText(result.response) : result.response;
    process.stdout.write(`${response}\n`);
  }
  if (signal.aborted) return ExitCode.interrupted;
  return result.is_error ? ExitCode.execution : ExitCode.ok;
}

export function registerChatCommand(program: Command, context: CommandContext) {
  const chat = program
    .command('chat')
    .description('talk to the agent: one answer with -p, otherwise a conversation on stdin')
    .argument('<file>', 'path to agent.yaml')
    .option('-p, --prompt <text>', 'send one message, print the final response and exit')
    .option('--json', 'with -p: print the whole ExecutionResult as JSON', false)
    .option('--resume <session-id>', 'continue a saved conversation')
    .option('--force-ingest', 'rebuild the retrieval tool indexes before starting', false);
  addRecordingOptions(chat).action((file: string, options: ChatOptions) =>
    context.run(chatCommand(file, options, context.style, context.interruptible('ending the agent run'))),
  );
}

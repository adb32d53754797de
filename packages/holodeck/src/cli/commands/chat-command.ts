import type { Command } from 'commander';
import type { BackendWarning } from '../../backends/contract/index.js';
import { ExitCode, type ExitCodeValue } from '../exit-codes.js';
import type { Style } from '../terminal-style.js';

export interface ChatOptions {
  prompt?: string;
  json: boolean;
  resume?: string;
}

function printWarnings(warnings: BackendWarning[], style: Style) {
  for (const warning of warnings) process.stderr.write(`${style.yellow('warning')} ${warning.message}\n`);
}

/** `holodeck chat <file> [-p prompt]`: one answer with -p, otherwise a line-based conversation. */
export async function chatCommand(file: string, options: ChatOptions, style: Style): Promise<ExitCodeValue> {
  const onWarnings = (warnings: BackendWarning[]) => printWarnings(warnings, style);
  // Loaded on use: the Claude SDK is large and `validate`/`schema` do not need it.
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
      { onWarnings, ...(options.resume ? { resume: options.resume } : {}) },
    );
    return outcome.failed ? ExitCode.execution : ExitCode.ok;
  }
  const { runOneShot } = await import('../../chat/run-one-shot.js');
  const { result } = await runOneShot(file, options.prompt, {
    onWarnings,
    ...(options.resume ? { resume: options.resume } : {}),
  });
  if (options.json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } else if (result.is_error) {
    process.stderr.write(
      `${style.red('error')} the agent run failed: ${result.error_reason ?? 'unknown reason'}\n`,
    );
  } else {
    process.stdout.write(`${result.response}\n`);
  }
  return result.is_error ? ExitCode.execution : ExitCode.ok;
}

export function registerChatCommand(
  program: Command,
  run: (code: Promise<ExitCodeValue>) => void,
  style: Style,
) {
  program
    .command('chat')
    .description('talk to the agent: one answer with -p, otherwise a conversation on stdin')
    .argument('<file>', 'path to agent.yaml')
    .option('-p, --prompt <text>', 'send one message, print the final response and exit')
    .option('--json', 'with -p: print the whole ExecutionResult as JSON', false)
    .option('--resume <session-id>', 'continue a saved conversation')
    .action((file: string, options: ChatOptions) => run(chatCommand(file, options, style)));
}

import { query } from '@anthropic-ai/claude-agent-sdk';
import { AgentSessionError } from '../../errors.js';
import type { ConversationMessage, ExecutionResult } from '../contract/index.js';
import { buildExecutionResult } from './build-execution-result.js';
import { type PreparedAgent, queryOptions } from './prepared-agent.js';
import { RunAccumulator } from './run-accumulator.js';
import { ClaudeProcessHandle, describeExit } from './spawn-claude-process.js';
import { withSpawnRetry } from './with-spawn-retry.js';

/**
 * Prior conversation is given to a fresh one-shot run as a transcript ahead of the message:
 * the CLI cannot be handed assistant turns it did not produce.
 */
export function renderPrompt(message: string, context: readonly ConversationMessage[] | undefined): string {
  if (!context?.length) return message;
  const transcript = context.map(
    (entry) => `${entry.role === 'user' ? 'User' : 'Assistant'}: ${entry.content}`,
  );
  return `Conversation so far:\n${transcript.join('\n')}\n\nUser: ${message}`;
}

/** One stateless invocation: a fresh CLI process and session, read to its end. */
export async function runOnce(
  prepared: PreparedAgent,
  message: string,
  context?: readonly ConversationMessage[],
): Promise<ExecutionResult> {
  const startedAt = Date.now();
  const finish = (accumulator: RunAccumulator): ExecutionResult =>
    buildExecutionResult(accumulator.state, {
      startedAt,
      credentialHint: prepared.credentialHint,
      ...(prepared.validateStructuredOutput
        ? { validateStructuredOutput: prepared.validateStructuredOutput }
        : {}),
    });
  return withSpawnRetry(async () => {
    const handle = new ClaudeProcessHandle();
    const accumulator = new RunAccumulator(false);
    const run = query({
      prompt: renderPrompt(message, context),
      options: queryOptions(prepared, { handle, partialMessages: false }),
    });
    try {
      for await (const sdkMessage of run) {
        for (const _event of accumulator.accept(sdkMessage)) {
          // one-shot runs keep only the final state
        }
        // Fail closed before the model runs without tools agent.yaml promised it.
        if (accumulator.state.mcpFailures.length) break;
      }
    } catch (error) {
      // The CLI exits 1 after reporting a failed run; the result it sent is the answer.
      if (accumulator.state.result || accumulator.state.mcpFailures.length) return finish(accumulator);
      const started = accumulator.state.sessionId !== undefined;
      throw new AgentSessionError(
        `${describeExit(handle)}${error instanceof Error && !handle.exited ? ` (${error.message})` : ''}`,
        { cause: { started, error } },
      );
    } finally {
      run.close();
      await handle.stop();
    }
    return finish(accumulator);
  });
}

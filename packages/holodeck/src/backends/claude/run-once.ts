import type { OnElicitation } from '@anthropic-ai/claude-agent-sdk';
import { query } from '@anthropic-ai/claude-agent-sdk';
import { AgentSessionError } from '../../errors.js';
import type {
  ConversationMessage,
  ElicitationRecord,
  ExecutionResult,
  InvokeOptions,
} from '../contract/index.js';
import { declineReporting } from '../elicitation-broker.js';
import type { ConcurrencyLimit } from './concurrency-limit.js';
import { finishRun, withGovernance } from './finish-run.js';
import type { GovernedRun } from './governance/prepare-governance.js';
import { LimitToolGate } from './limit-tool-gate.js';
import { type PreparedAgent, queryOptions } from './prepared-agent.js';
import { ProcessSlots } from './process-slots.js';
import { progressReporter } from './report-run-progress.js';
import { RunAccumulator } from './run-accumulator.js';
import { ClaudeProcessHandle, describeExit } from './spawn-claude-process.js';
import { toElicitationQuestion } from './to-elicitation-question.js';
import type { WarmProcessPool } from './warm-process-pool.js';
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

/**
 * A run stopped by its caller: never retried (it may have had side effects). `partial` is what it
 * did until then (usage, cost, tool calls, text), so a timed-out attempt still reports its spend.
 */
function abortedError(signal: AbortSignal, partial?: ExecutionResult): AgentSessionError {
  const reason = signal.reason instanceof Error ? signal.reason.message : String(signal.reason ?? 'aborted');
  return new AgentSessionError(`the run was stopped: ${reason}`, {
    cause: signal.reason,
    phase: 'run',
    ...(partial
      ? { partial: { ...partial, is_error: true, error_reason: `the run was stopped: ${reason}` } }
      : {}),
  });
}

/** A one-shot run declines MCP elicitation, as the plan does, and reports each request. */
function declineElicitations(onRecord: (record: ElicitationRecord) => void): OnElicitation {
  const decline = declineReporting(onRecord);
  return (request, { signal }) => decline(toElicitationQuestion(request), signal);
}

/** Where one-shot runs get their processes: the backend's process slots and, when pre-warming, its spares. */
export interface RunProcesses {
  slots: ProcessSlots;
  pool?: WarmProcessPool;
  /**
   * CLI start-ups at a time (see ClaudeBackend): a cold run holds a turn from spawn until its
   * process is up. Measured: four cold start-ups at once on 2 cores put the first model request
   * of a suite at ~4.1 s, against ~2.3 s when they start two at a time (bench/README.md).
   */
  startups?: ConcurrencyLimit;
}

/** Where a one-shot run gets its process: a pre-warmed spare when one fits, else a cold start in a free slot. */
async function startRun(
  prepared: PreparedAgent,
  prompt: string,
  options: InvokeOptions,
  processes: RunProcesses,
  governed?: GovernedRun,
) {
  // A warm spare's hooks were fixed at start-up, so governed runs (hooks bound to a Novarch session) start cold.
  // So are runs that report their elicitations (a spare's onElicitation declines unreported).
  const spare =
    options.workingDirectory || governed || options.onElicitation ? undefined : await processes.pool?.take();
  // Recorded runs: the spare's requests belong to this run from now on.
  spare?.claimRoute?.(options.traffic);
  if (spare)
    return {
      handle: spare.handle,
      run: spare.warm.query(prompt),
      release: spare.release,
      toolGate: spare.toolGate,
      cold: false,
      spawnedAt: 0,
      startupTurn: undefined,
    };
  const release = await processes.slots.acquire();
  const startupTurn = await processes.startups?.acquire();
  const handle = new ClaudeProcessHandle();
  const toolGate = new LimitToolGate();
  const spawnedAt = Date.now();
  try {
    const run = query({
      prompt,
      options: queryOptions(prepared, {
        handle,
        // Novarch's gate learns from the partial messages where an assistant message ends, so a
        // write is refused when other calls of its message follow it (the accumulator ignores them).
        // A run told of its progress needs them too: only `message_delta` carries a response's
        // final output count (the CLI's assistant messages carry the count it started with).
        partialMessages: governed !== undefined || options.onProgress !== undefined,
        toolGate,
        ...(options.workingDirectory ? { workingDirectory: options.workingDirectory } : {}),
        ...(options.traffic ? { traffic: options.traffic } : {}),
        ...(governed ? { extraHooks: governed.hooks } : {}),
        ...(options.onElicitation ? { onElicitation: declineElicitations(options.onElicitation) } : {}),
      }),
    });
    return { handle, run, release, toolGate, cold: true, spawnedAt, startupTurn };
  } catch (error) {
    startupTurn?.();
    release();
    throw error;
  }
}

/** One stateless invocation: a fresh CLI session (a new or pre-warmed process), read to its end. */
export async function runOnce(
  prepared: PreparedAgent,
  message: string,
  context?: readonly ConversationMessage[],
  options: InvokeOptions = {},
  processes: RunProcesses = { slots: new ProcessSlots(Number.POSITIVE_INFINITY) },
): Promise<ExecutionResult> {
  const startedAt = Date.now();
  options.signal?.throwIfAborted();
  // One Novarch session for the run, opened once: a spawn retry goes on in it rather than leaving
  // a session behind per attempt; its gate is closed when the run is over, however it ended.
  const governed = await prepared.governance?.openRun();
  if (options.onHold) governed?.watchHolds(options.onHold);
  try {
    return await withSpawnRetry(() =>
      attemptRun({
        prepared,
        prompt: renderPrompt(message, context),
        options,
        processes,
        startedAt,
        governed,
      }),
    );
  } finally {
    await governed?.close();
  }
}

interface Attempt {
  prepared: PreparedAgent;
  prompt: string;
  options: InvokeOptions;
  processes: RunProcesses;
  startedAt: number;
  governed: GovernedRun | undefined;
}

/** One attempt of a run: start a process, read it to its end, build the result. */
async function attemptRun(attempt: Attempt): Promise<ExecutionResult> {
  const { prepared, options, processes, startedAt, governed } = attempt;
  options.signal?.throwIfAborted();
  const pool = processes.pool;
  const accumulator = new RunAccumulator(false, prepared.toolKindOf);
  const finish = () => finishRun(prepared, accumulator.state, startedAt, governed);
  const reportProgress = progressReporter(options.onProgress, prepared.prices);
  const { handle, run, release, toolGate, cold, spawnedAt, startupTurn } = await startRun(
    prepared,
    attempt.prompt,
    options,
    processes,
    governed,
  );
  // Tells the pool how long the model took (or that the run ended without an answer).
  let answered: ((answered: boolean) => void) | undefined;
  // Stopping the process ends the loop below, and the abort is reported. The process is killed at
  // once, before its input closes: after the SDK's close() alone, the CLI went on to run the tools
  // of the message it had sent and asked the model again (measured: two more requests), and while
  // a SIGTERM was handled, the closed input denied the tool call the gate held and the CLI asked
  // the model once more (seen under load), which a run stopped at a limit must not do. A signal
  // that aborted while the process was starting (waiting for a warm spare) fires no event any
  // more: stop at once.
  const abort = () => {
    void handle.stop(0);
    run.close();
  };
  if (options.signal?.aborted) abort();
  options.signal?.addEventListener('abort', abort, { once: true });
  if (options.onProgress && options.signal) toolGate.arm(options.signal);
  try {
    for await (const sdkMessage of run) {
      governed?.observe(sdkMessage);
      for (const _event of accumulator.accept(sdkMessage)) {
        // one-shot runs keep only the final state
      }
      reportProgress(accumulator.state);
      toolGate.observe(sdkMessage);
      // Our process is up and about to wait on the model: the next start-up may begin, and the
      // pool measures.
      if (sdkMessage.type === 'system' && sdkMessage.subtype === 'init') startupTurn?.();
      if (sdkMessage.type === 'system' && sdkMessage.subtype === 'init' && pool && !answered) {
        if (cold) pool.measuredStartup(Date.now() - spawnedAt);
        answered = pool.waiting();
      }
      if (sdkMessage.type === 'result') answered?.(true);
      // Fail closed before the model runs without tools agent.yaml promised it.
      if (accumulator.state.mcpFailures.length) break;
    }
    if (options.signal?.aborted) throw abortedError(options.signal, finish());
  } catch (error) {
    if (options.signal?.aborted) throw abortedError(options.signal, finish());
    // The CLI exits 1 after reporting a failed run; the result it sent is the answer.
    if (accumulator.state.result || accumulator.state.mcpFailures.length)
      return withGovernance(finish(), governed);
    const started = accumulator.state.sessionId !== undefined;
    throw new AgentSessionError(
      `${describeExit(handle)}${error instanceof Error && !handle.exited ? ` (${error.message})` : ''}`,
      { cause: error, phase: started ? 'run' : 'spawn' },
    );
  } finally {
    startupTurn?.();
    answered?.(false);
    options.signal?.removeEventListener('abort', abort);
    toolGate.disarm();
    run.close();
    await handle.stop();
    release();
  }
  return withGovernance(finish(), governed);
}

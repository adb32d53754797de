import type { ActiveSession } from '../augur/augur-session.js';
import { describeError } from './governed-call.js';

/** How a governed read is run and told failed. */
export interface GovernedReadOptions {
  /** The call's abort signal: a read that finishes after it fired is recorded as failed. */
  signal?: AbortSignal | undefined;
  /** Whether an output reports an error (a throw from it counts as yes). */
  isErrorOutput: (output: unknown) => boolean;
}

/**
 * Runs a read and records it as evidence: its input, its output (the error's message when it
 * threw), its timing, and whether it failed (it threw, it was aborted, or its output reports an
 * error), so a rule can tell a lookup that failed from one that answered (`e.is_error`). A throw
 * of `execute` is recorded, then rethrown to the caller. Evidence the store cannot take is lost,
 * as on the hook gate: the next write is then judged without it, and fails closed there.
 */
export async function runGovernedRead<Output>(
  session: ActiveSession,
  toolName: string,
  input: unknown,
  execute: () => Output | PromiseLike<Output>,
  options: GovernedReadOptions,
): Promise<{ output: Output; isError: boolean }> {
  const startedAt = new Date().toISOString();
  const record = async (output: unknown, isError: boolean): Promise<void> => {
    try {
      await session.engine.store.recordEvidence({
        sessionId: session.record.id,
        toolName,
        input,
        output,
        isError,
        startedAt,
        finishedAt: new Date().toISOString(),
      });
    } catch {
      // The read already ran; see above.
    }
  };
  let output: Output;
  try {
    output = await execute();
  } catch (error) {
    await record(describeError(error), true);
    throw error;
  }
  const isError = options.signal?.aborted === true || reportsError(options.isErrorOutput, output);
  await record(output, isError);
  return { output, isError };
}

/** An output whose check throws counts as failed: evidence a rule may rely on must be sure. */
export function reportsError(isErrorOutput: (output: unknown) => boolean, output: unknown): boolean {
  try {
    return isErrorOutput(output) === true;
  } catch {
    return true;
  }
}

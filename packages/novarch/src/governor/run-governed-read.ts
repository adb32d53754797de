import type { ActiveSession } from '../session/active-session.js';
import { markEvidenceLost } from '../session/session-evidence.js';
import { errorMessage } from '../support.js';

/** How a governed read is run and told failed. */
export interface GovernedReadOptions {
  /** The call's abort signal: a read that finishes after it fired is recorded as failed. */
  signal?: AbortSignal | undefined;
  /** Whether an output reports an error (a throw from it counts as yes). */
  isErrorOutput: (output: unknown) => boolean;
  /** Told when the read's evidence could not be stored (default: a line on stderr). */
  warn?: ((message: string) => void) | undefined;
}

/**
 * Runs a read and records it as evidence: its input, its output (the error's message when it
 * threw), its timing, and whether it failed (it threw, it was aborted, or its output reports an
 * error), so a rule can tell a lookup that failed from one that answered (`e.is_error`). A throw
 * of `execute` is recorded, then rethrown to the caller. Evidence the store cannot take (a store
 * failure, a server that is down or restarting) marks the session's evidence incomplete, as on the
 * hook gate: every later write of the session is refused ("evidence incomplete"), never judged as
 * if the read had not happened. `warn` is told once why.
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
    } catch (error) {
      // The read already ran and its output goes back to the agent; see above.
      const reason = `the evidence of ${toolName} could not be stored: ${errorMessage(error)}`;
      markEvidenceLost(session, reason);
      (options.warn ?? ((message: string) => process.stderr.write(`${message}\n`)))(
        `novarch: session ${session.record.id}: ${reason}. Its evidence is incomplete: later writes of the session are refused.`,
      );
    }
  };
  let output: Output;
  try {
    output = await execute();
  } catch (error) {
    await record(errorMessage(error), true);
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

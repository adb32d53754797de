import { errorMessage } from '../../support.js';
import type { ToolOutput } from '../holodeck-tool.js';

/** A user function of a function tool: `(args, { signal })`, sync or async. */
export type ToolImplementation = (args: Record<string, unknown>, options: { signal: AbortSignal }) => unknown;

function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value) ?? String(value);
}

/**
 * Calls a function tool with its own AbortSignal, aborted when the timeout passes or the caller's
 * signal aborts, so a tool that honours it stops instead of running on after its result was given
 * up. The call resolves at that moment whatever the function does.
 */
export async function callWithTimeout(
  name: string,
  implementation: ToolImplementation,
  args: Record<string, unknown>,
  timeoutMs: number,
  callerSignal: AbortSignal | undefined,
): Promise<ToolOutput> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let detach = () => {};
  const stopped = new Promise<ToolOutput>((resolve) => {
    const seconds = timeoutMs / 1000;
    timer = setTimeout(() => {
      controller.abort(new Error(`tool "${name}" timed out after ${seconds} s`));
      resolve({ text: `Tool "${name}" timed out after ${seconds} s`, isError: true });
    }, timeoutMs);
    if (callerSignal) {
      const onAbort = () => {
        controller.abort(callerSignal.reason);
        resolve({ text: `Tool "${name}" was stopped: the run was aborted`, isError: true });
      };
      if (callerSignal.aborted) onAbort();
      else {
        callerSignal.addEventListener('abort', onAbort, { once: true });
        detach = () => callerSignal.removeEventListener('abort', onAbort);
      }
    }
  });
  const run = (async (): Promise<ToolOutput> => {
    try {
      return { text: stringify(await implementation(args, { signal: controller.signal })), isError: false };
    } catch (error) {
      return { text: `Tool "${name}" failed: ${errorMessage(error)}`, isError: true };
    }
  })();
  try {
    return await Promise.race([run, stopped]);
  } finally {
    clearTimeout(timer);
    detach();
  }
}

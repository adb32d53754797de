import { errorMessage } from '../../support.js';
import type { Elicit, HoloDeckTool, RunTraffic, ToolExecuteOptions, ToolOutput } from '../../tools/index.js';
import type { RunGovernance } from './open-run-governance.js';

/**
 * What the model loop calls for one tool call: the input as the model wrote it, the run's signal,
 * and the loop's id of the call (the `callId` of its `tool-call` and `tool-result` events).
 */
export type ToolExecute = (
  input: unknown,
  options: { signal?: AbortSignal; callId?: string; elicit?: Elicit; traffic?: RunTraffic },
) => Promise<ToolOutput>;

/**
 * The one place every tool call of this backend passes through, function and MCP tools alike.
 * A governed run's calls go through Novarch first: a read runs and becomes evidence, a write runs
 * only after a pass or an operator's approval; a refusal or a kill reaches the model as an error
 * result with Novarch's reason (the run then fails with the kill reason, as on Claude). A tool
 * that throws against its contract still answers the model with an error result.
 */
export function wrapToolExecute(tool: HoloDeckTool, governance?: RunGovernance): ToolExecute {
  const run = async (input: unknown, options: ToolExecuteOptions): Promise<ToolOutput> => {
    try {
      return await tool.execute(input, options);
    } catch (error) {
      return { text: `Tool "${tool.name}" failed: ${errorMessage(error)}`, isError: true };
    }
  };
  const runOptions = (options: Parameters<ToolExecute>[1]): ToolExecuteOptions => ({
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.elicit ? { elicit: options.elicit } : {}),
    ...(options.traffic ? { traffic: options.traffic } : {}),
  });
  if (!governance) return (input, options) => run(input, runOptions(options));
  const toolName = governance.toolName(tool.name);
  return async (input, options) => {
    const modelText = governance.stepText.current();
    const outcome = await governance.governor.run(
      {
        toolName,
        input,
        ...(options.signal ? { signal: options.signal } : {}),
        // Hold events carry it, so a hold pairs with its call as on Claude.
        ...(options.callId === undefined ? {} : { callId: options.callId }),
        // What the model wrote before this call, in its step: the rationale a hold shows.
        ...(modelText ? { modelText } : {}),
      },
      () => run(input, runOptions(options)),
      // Approve with edit: the operator's input, judged again by Novarch, is what runs.
      (edited) => run(edited, runOptions(options)),
    );
    return outcome.kind === 'ran' ? outcome.output : { text: outcome.reason, isError: true };
  };
}

import { jsonSchema, type ToolSet, tool } from 'ai';
import type { Elicit, HoloDeckTool, RunTraffic, ToolOutput } from '../../tools/index.js';
import type { RunGovernance } from './open-run-governance.js';
import { wrapToolExecute } from './wrap-tool-execute.js';

/**
 * HoloDeck's tools as an AI SDK ToolSet, keyed by the name the model sees. The JSON Schema goes to
 * the model exactly as written; the SDK does not validate input against it (the tool does, with
 * ajv, and answers with an error the model can read). The model receives the tool's text, marked
 * as an error result when the tool failed. A governed run gets its own set, bound to its governor;
 * a session's run, one bound to who answers its MCP servers' elicitation requests.
 */
export function toAiSdkTools(
  tools: readonly HoloDeckTool[],
  governance?: RunGovernance,
  elicit?: Elicit,
  traffic?: RunTraffic,
): ToolSet {
  const toolSet: ToolSet = {};
  for (const holodeckTool of tools) {
    const execute = wrapToolExecute(holodeckTool, governance);
    toolSet[holodeckTool.name] = tool<unknown, ToolOutput>({
      description: holodeckTool.description,
      inputSchema: jsonSchema(holodeckTool.inputSchema),
      // The SDK's id of the call (its `tool-call` event's callId), for Novarch's hold events.
      execute: (input, { abortSignal, toolCallId }) =>
        execute(input, {
          callId: toolCallId,
          ...(abortSignal ? { signal: abortSignal } : {}),
          ...(elicit ? { elicit } : {}),
          ...(traffic ? { traffic } : {}),
        }),
      toModelOutput: ({ output }) =>
        output.isError ? { type: 'error-text', value: output.text } : { type: 'text', value: output.text },
    });
  }
  return toolSet;
}

import type { HoloDeckTool, ToolExecuteOptions, ToolOutput } from '../tools/holodeck-tool.js';
import type { TrafficScope } from '../tools/run-traffic.js';
import type { Recorder } from './recorder.js';
import type { JsonValue } from './stable-json.js';

/** The recorded name of a tool call as one backend spells it: `lookup` or `mcp__holodeck_tools__lookup`. */
export function sameTool(recorded: string, name: string): boolean {
  return recorded === name || recorded.endsWith(`__${name}`);
}

/**
 * The tools with those named in `replayed` answered from the recording (`replay_tools: true`,
 * `--replay-tools`): a call gets the result recorded for the same tool with the same arguments in
 * the same attempt (the n-th such call, the n-th recorded one). A call with no recorded result is
 * an error result the model sees, and the attempt errors as an unmatched request does. A call
 * handed no run's traffic belongs to `fallback`.
 */
export function replayedTools(
  tools: readonly HoloDeckTool[],
  recorder: Recorder,
  replayed: (name: string) => boolean,
  fallback: TrafficScope,
): HoloDeckTool[] {
  const calls = new Map<string, number>();
  return tools.map((tool) => {
    if (!replayed(tool.name)) return tool;
    return {
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      async execute(input: unknown, options?: ToolExecuteOptions): Promise<ToolOutput> {
        const scope = options?.traffic?.scope ?? fallback;
        const args = JSON.parse(JSON.stringify(input ?? {})) as JsonValue;
        const key = `${scope.caseName}/${scope.attempt}/${tool.name}/${JSON.stringify(args)}`;
        const nth = calls.get(key) ?? 0;
        calls.set(key, nth + 1);
        const recorded = recorder.recordedToolResult(scope, tool.name, args, nth);
        if (recorded) {
          const text =
            typeof recorded.result === 'string' ? recorded.result : JSON.stringify(recorded.result);
          return { text, isError: recorded.is_error };
        }
        const message = `no recorded result for tool ${tool.name} call ${nth + 1} with these arguments in ${scope.caseName} attempt ${scope.attempt}: ${JSON.stringify(args).slice(0, 120)}`;
        recorder.noteUnmatched(scope, message);
        return { text: message, isError: true };
      },
    };
  });
}

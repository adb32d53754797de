import type { LoadedAgent } from '../../config/index.js';
import type { HoloDeckTool } from '../../tools/holodeck-tool.js';
import type { FunctionToolEntry, LoadedTools } from '../../tools/index.js';
import type { ModelRoute, ModelTraffic } from '../contract/index.js';

/** The tool with its calls made as part of the run that claimed `route` (given its traffic). */
function boundTool(tool: HoloDeckTool, route: ModelRoute): HoloDeckTool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    execute: (input, options) => {
      const traffic = route.claimedBy;
      return tool.execute(input, traffic ? { ...options, traffic } : options);
    },
  };
}

/** Loads the function tools and a maker of their in-process MCP server (one per CLI process). */
export async function prepareFunctionTools(
  agent: LoadedAgent,
  entries: FunctionToolEntry[],
  retrieval?: LoadedTools,
) {
  // Loaded on demand: the MCP SDK and ajv cost ~150 ms of startup that most agents do not need.
  const [{ loadFunctionTools }, { createFunctionToolsServer }] = await Promise.all([
    import('../../tools/index.js'),
    import('./function-tools-server.js'),
  ]);
  const functions = await loadFunctionTools(agent.file, entries, agent.locate).catch(
    async (error: unknown) => {
      await retrieval?.close();
      throw error;
    },
  );
  const loaded: LoadedTools = retrieval
    ? {
        tools: [...functions.tools, ...retrieval.tools],
        close: () => Promise.all([functions.close(), retrieval.close()]).then(() => {}),
      }
    : functions;
  return {
    loaded,
    // Recorded runs may answer some tools from the recording (replay_tools); a process's tool
    // calls belong to the run that claimed its route (a pre-warmed spare's too).
    createServer: (traffic?: ModelTraffic) => {
      const tools = traffic ? traffic.wrapTools(loaded.tools) : loaded.tools;
      return (route?: ModelRoute) =>
        createFunctionToolsServer(route ? tools.map((tool) => boundTool(tool, route)) : tools);
    },
  };
}

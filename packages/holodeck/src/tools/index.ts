// What a tool is for HoloDeck, whatever backend offers it: no backend or model SDK imports here.

export { type FunctionToolEntry, loadFunctionTools } from './function/load-function-tools.js';
export type { HoloDeckTool, LoadedTools, ToolExecuteOptions, ToolOutput } from './holodeck-tool.js';

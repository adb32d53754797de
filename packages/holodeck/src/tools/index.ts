// What a tool is for HoloDeck, whatever backend offers it: no backend or model SDK imports here.

export { describeModuleLoadError, type ModuleLoadProblem } from './describe-module-error.js';
export {
  type FunctionToolEntry,
  INVALID_ARGUMENTS_PREFIX,
  loadFunctionTools,
} from './function/load-function-tools.js';
export type { HoloDeckTool, LoadedTools, ToolExecuteOptions, ToolOutput } from './holodeck-tool.js';

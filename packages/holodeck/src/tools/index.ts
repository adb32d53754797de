// What a tool is for HoloDeck, whatever backend offers it: no backend or model SDK imports here.

export { describeModuleLoadError, type ModuleLoadProblem } from './describe-module-error.js';
export {
  type FunctionToolEntry,
  INVALID_ARGUMENTS_PREFIX,
  loadFunctionTools,
} from './function/load-function-tools.js';
export type { HoloDeckTool, LoadedTools, ToolExecuteOptions, ToolOutput } from './holodeck-tool.js';
export { checkRetrievalTools, type RetrievalIssue } from './retrieval/check-retrieval-tools.js';
export type { RetrievalWarning } from './retrieval/load-retrieval-tools.js';
export { loadRetrievalTools } from './retrieval/load-retrieval-tools-lazily.js';
export { retrievalContextOf } from './retrieval/retrieval-context.js';
export {
  type RetrievalToolConfig,
  type RetrievalToolEntry,
  retrievalToolEntries,
  searchToolName,
} from './retrieval/retrieval-tool-entries.js';
export { markTurn, type RunTraffic, type TrafficScope } from './run-traffic.js';
export type {
  Elicit,
  ElicitationAnswer,
  ElicitationQuestion,
  ElicitationValue,
} from './tool-elicitation.js';

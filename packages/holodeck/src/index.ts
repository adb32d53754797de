// Public API of the holodeck package. Explicit list, pinned by test/unit/index.test.ts.

export type {
  AgentBackend,
  AgentSession,
  AgentToolNames,
  BackendChecks,
  BackendIssue,
  BackendOptions,
  BackendProfile,
  BackendWarning,
  ConversationMessage,
  CreateSessionOptions,
  ExecutionResult,
  IsolationLevel,
  SessionEvent,
  SessionEventType,
  SideEffectProfile,
  TokenUsage,
  ToolCall,
  ToolResult,
} from './backends/contract/index.js';
export { backendProfile, selectBackend } from './backends/select-backend.js';
export { runOneShot } from './chat/run-one-shot.js';
export type { AgentConfig, LoadedAgent } from './config/index.js';
export { agentJsonSchema } from './config/index.js';
export {
  AgentSessionError,
  ConfigError,
  type ConfigIssue,
  CredentialError,
  HoloDeckError,
  RuntimeMissingError,
} from './errors.js';
export { type AgentFileOptions, loadAgent, validateAgent } from './load-agent.js';
export type { HoloDeckTool, ToolExecuteOptions, ToolOutput } from './tools/index.js';

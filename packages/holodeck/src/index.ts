// Public API of the holodeck package. Explicit list, pinned by test/unit/index.test.ts.

export { ClaudeBackend } from './backends/claude/claude-backend.js';
export type {
  AgentBackend,
  AgentSession,
  BackendWarning,
  ConversationMessage,
  CreateSessionOptions,
  ExecutionResult,
  SessionEvent,
  SessionEventType,
  TokenUsage,
  ToolCall,
  ToolResult,
} from './backends/contract/index.js';
export { selectBackend } from './backends/select-backend.js';
export { runOneShot } from './chat/run-one-shot.js';
export type { AgentConfig, LoadedAgent } from './config/index.js';
export { agentJsonSchema, loadAgentConfig, validateAgentFile } from './config/index.js';
export {
  AgentSessionError,
  ConfigError,
  type ConfigIssue,
  CredentialError,
  HoloDeckError,
  RuntimeMissingError,
} from './errors.js';

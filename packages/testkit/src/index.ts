// Public API of @holodeck/testkit. The list is explicit and pinned by test/unit/index.test.ts.

export { type FakeCliEnvOptions, fakeCliEnv } from './cli-env.js';
export {
  type FakeAnthropicOptions,
  type FakeAnthropicServer,
  startFakeAnthropic,
} from './fake-anthropic-server.js';
export {
  CLAUDE_CLI_USER_AGENT_PREFIX,
  classifyMessagesRequest,
  ENVIRONMENT_CONTEXT_MARKER,
  FORK_PROMPT_MARKERS,
  type RequestClassification,
} from './request/classify-request.js';
export type { ContentBlock, MessageParam, MessagesBody } from './request/messages-body.js';
export type { RecordedRequest, RequestKind } from './request/recorded-request.js';
export {
  lastUserText,
  type SentToolResult,
  systemPromptText,
  toolNames,
  toolResults,
} from './request/request-inspection.js';
export type {
  ApiErrorStep,
  DynamicStep,
  MessageStep,
  ResponseBlock,
  ScriptStep,
  StepOptions,
  StepUsage,
  StopReason,
} from './script/script-step.js';
export {
  type ApiErrorOptions,
  apiError,
  FAKE_THINKING_SIGNATURE,
  type MessageOptions,
  message,
  type ReplyOptions,
  reply,
  respond,
  type ToolCall,
  type ToolUseOptions,
  thinking,
  toolUse,
  toolUses,
} from './script/step-builders.js';

// Public API of @holodeck/testkit. The list is explicit and pinned by test/unit/index.test.ts.

export { type FakeCliEnvOptions, fakeCliEnv } from './cli-env.js';
export { type DenseVectorSpace, denseVectorSpace } from './embeddings/dense-vectors.js';
export {
  type FakeAnthropicOptions,
  type FakeAnthropicServer,
  startFakeAnthropic,
} from './fake-anthropic-server.js';
export type {
  ChatCompletionsBody,
  ChatMessageParam,
  ChatResponseFormat,
  ChatToolCallParam,
  ChatToolParam,
} from './openai/chat-completions-body.js';
export type { EmbeddingsBody } from './openai/embeddings-body.js';
export { fakeEmbedding } from './openai/fake-embedding.js';
export {
  type FakeOpenAIOptions,
  type FakeOpenAIServer,
  startFakeOpenAI,
} from './openai/fake-openai-server.js';
export type { OpenAIApi } from './openai/match-openai-route.js';
export type { OpenAIRecordedRequest, OpenAIRequestKind } from './openai/openai-recorded-request.js';
export {
  type ChatTokenLimit,
  chatLastUserText,
  chatMaxTokens,
  chatMessages,
  chatMessageText,
  chatResponseFormat,
  chatSystemText,
  chatTemperature,
  chatToolNames,
  chatToolResults,
  embeddingsInputs,
  type SentChatToolResult,
} from './openai/openai-request-inspection.js';
export type {
  ChatDynamicStep,
  ChatFinishReason,
  ChatMessageStep,
  ChatStep,
  ChatStepOptions,
  ChatStepUsage,
  ChatToolCall,
  EmbeddingsStep,
  EmbeddingsVectorsStep,
  OpenAIErrorObject,
  OpenAIErrorStep,
} from './openai/openai-script-step.js';
export {
  type ChatMessageContent,
  type ChatReplyOptions,
  type ChatToolCallOptions,
  chatJson,
  chatMessage,
  chatReply,
  chatRespond,
  chatToolCall,
  chatToolCalls,
  embeddingsReply,
  type OpenAIErrorOptions,
  openaiError,
} from './openai/openai-step-builders.js';
export {
  type OtlpDataPoint,
  type OtlpMetric,
  type OtlpReceiver,
  type OtlpSpan,
  otlpAttribute,
  startOtlpReceiver,
} from './otlp/otlp-receiver.js';
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
export {
  type FakeSlackApi,
  type SignedSlackInteraction,
  type SlackApiCall,
  type SlackFailure,
  type SlackInteractionOptions,
  type SlackResponseUrlPost,
  slackSignature,
  startFakeSlackApi,
} from './slack/fake-slack-api.js';
export { type WaitUntilOptions, waitUntil } from './wait/wait-until.js';

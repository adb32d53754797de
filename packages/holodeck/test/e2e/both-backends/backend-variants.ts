import {
  apiError,
  chatJson,
  chatLastUserText,
  chatMessages,
  chatReply,
  chatRespond,
  chatToolCall,
  chatToolResults,
  type FakeAnthropicServer,
  type FakeOpenAIServer,
  lastUserText,
  openaiError,
  reply,
  respond,
  startFakeAnthropic,
  startFakeOpenAI,
  toolResults,
  toolUse,
} from '@holodeck/testkit';
import { createE2eAgent, type E2eAgent, TEST_API_KEY } from '../support/e2e-agent.js';

/** One step of a model script, in the variant's own wire format. */
export type ModelStep = unknown;

/** What a scenario reads of a request the fake model received, whatever its protocol. */
export interface SeenRequest {
  lastUserText: string;
  /** Every message text of the conversation sent (history included), joined. */
  conversation: string;
  toolResults: { text: string; isError: boolean }[];
  /** The schema of a forced judge verdict (`submit_verdict`), when this is a judge call. */
  verdictSchema?: Record<string, unknown>;
}

/** A backend as the parametrised suite drives it: a fake model of its protocol, and its agent.yaml. */
export interface BackendVariant {
  readonly name: 'claude' | 'ai-sdk';
  /** The variable a missing credential names. */
  readonly keyVariable: string;
  start(): Promise<void>;
  close(): Promise<void>;
  /** Fails when a scripted step was not used or a request was unexpected; then resets. */
  checkAndReset(): void;
  /** Drops the steps left (of a generous dynamic script) and the recorded requests. */
  discardScript(): void;
  /** An agent on this backend, pointed at the fake model (config merged over the defaults). */
  agent(
    config?: Record<string, unknown>,
    files?: Record<string, string>,
    env?: Record<string, string>,
  ): E2eAgent;
  /** agent.yaml fields this backend needs for an MCP server's tools (Claude: allowed_tools). */
  mcpConfig(tools: string[]): Record<string, unknown>;
  script(...steps: ModelStep[]): void;
  requests(): SeenRequest[];
  reply(text: string): ModelStep;
  /**
   * A call of a function tool (by its agent.yaml name) or an MCP tool (`mcp__server__tool`),
   * after `text` when given (in the same assistant message).
   */
  callTool(name: string, args: Record<string, unknown>, text?: string): ModelStep;
  /** The final answer as structured output matching `response_format`. */
  structured(value: unknown): ModelStep;
  /** Steps that end in a run without valid structured output. */
  noValidStructuredOutput(): ModelStep[];
  /** Steps making a run fail with HTTP `status` after this backend's retries. */
  serverError(status: number): ModelStep[];
  /** A step answering from the request: `answer` gets what the request carried. */
  respond(answer: (request: SeenRequest) => ModelAnswer): ModelStep;
}

/**
 * What `respond` may answer with. `tokens` fixes the usage reported; without it the fakes estimate
 * input tokens from the request's length, which moves with the working directory's path.
 */
export type ModelAnswer = (
  | { kind: 'reply'; text: string }
  | { kind: 'tool'; name: string; args: Record<string, unknown> }
  | { kind: 'verdict'; verdict: Record<string, unknown> }
) & { tokens?: { input: number; output: number } };

const VERDICT_TOOL = 'submit_verdict';

function claudeVariant(): BackendVariant {
  let fake: FakeAnthropicServer | undefined;
  const server = () => {
    if (!fake) throw new Error('the fake Anthropic server is not running');
    return fake;
  };
  const toolName = (name: string) => (name.startsWith('mcp__') ? name : `mcp__holodeck_tools__${name}`);
  // The CLI adds <system-reminder> blocks to user messages and tool results: not what the user sent.
  const withoutReminders = (text: string) =>
    text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '').trim();
  const seen = (request: Parameters<typeof lastUserText>[0]): SeenRequest => {
    const judge = request.messagesBody?.tools?.find((tool) => tool.name === VERDICT_TOOL);
    return {
      lastUserText: withoutReminders(lastUserText(request)),
      conversation: JSON.stringify(request.messagesBody?.messages ?? []),
      toolResults: toolResults(request).map((result) => ({
        text: withoutReminders(result.text),
        isError: result.isError,
      })),
      ...(judge ? { verdictSchema: judge.input_schema as Record<string, unknown> } : {}),
    };
  };
  return {
    name: 'claude',
    keyVariable: 'ANTHROPIC_API_KEY',
    async start() {
      fake = await startFakeAnthropic();
    },
    close: async () => fake?.close(),
    checkAndReset() {
      try {
        server().assertComplete();
      } finally {
        server().reset();
      }
    },
    discardScript: () => server().reset(),
    agent: (config = {}, files = {}, env = {}) => createE2eAgent(server().url, { config, files, env }),
    mcpConfig: (tools) => ({ claude: { allowed_tools: tools } }),
    script: (...steps) => server().script(...(steps as Parameters<FakeAnthropicServer['script']>)),
    requests: () => server().requests.map(seen),
    reply: (text) => reply(text),
    callTool: (name, args, text) => toolUse(toolName(name), args, text === undefined ? {} : { text }),
    structured: (value) => toolUse('StructuredOutput', value as Record<string, unknown>),
    // The CLI asks once more for the StructuredOutput call, then ends "successfully" without one.
    noValidStructuredOutput: () => [reply('Paris, I think.'), reply('Still just text.')],
    serverError: (status) => [apiError(status, { type: 'api_error', message: 'Internal server error' })],
    respond: (answer) =>
      respond((request) => {
        const chosen = answer(seen(request));
        const options = chosen.tokens
          ? { usage: { input_tokens: chosen.tokens.input, output_tokens: chosen.tokens.output } }
          : {};
        if (chosen.kind === 'reply') return reply(chosen.text, options);
        if (chosen.kind === 'tool') return toolUse(toolName(chosen.name), chosen.args, options);
        return toolUse(VERDICT_TOOL, chosen.verdict, options);
      }),
  };
}

function aiSdkVariant(): BackendVariant {
  let fake: FakeOpenAIServer | undefined;
  const server = () => {
    if (!fake) throw new Error('the fake OpenAI server is not running');
    return fake;
  };
  const seen = (request: Parameters<typeof chatMessages>[0]): SeenRequest => {
    const judge = request.chatBody?.tools?.find((tool) => tool.function.name === VERDICT_TOOL);
    return {
      lastUserText: chatLastUserText(request),
      conversation: JSON.stringify(chatMessages(request)),
      toolResults: chatToolResults(request).map((result) => ({
        text: result.text,
        isError: /^(Tool "|Invalid arguments|Novarch:)/.test(result.text),
      })),
      ...(judge?.function.parameters ? { verdictSchema: judge.function.parameters } : {}),
    };
  };
  return {
    name: 'ai-sdk',
    keyVariable: 'OPENAI_API_KEY',
    async start() {
      fake = await startFakeOpenAI();
    },
    close: async () => fake?.close(),
    checkAndReset() {
      try {
        server().assertComplete();
      } finally {
        server().reset();
      }
    },
    discardScript: () => server().reset(),
    agent: (config = {}, files = {}, env = {}) =>
      createE2eAgent(server().url, {
        config: { model: { provider: 'openai', name: 'gpt-4o', endpoint: server().baseUrl }, ...config },
        files,
        env: { OPENAI_API_KEY: TEST_API_KEY, ...env },
      }),
    mcpConfig: () => ({}),
    script: (...steps) => server().script(...(steps as Parameters<FakeOpenAIServer['script']>)),
    requests: () => server().requests.map(seen),
    reply: (text) => chatReply(text),
    callTool: (name, args, text) => chatToolCall(name, args, text === undefined ? {} : { text }),
    structured: (value) => chatJson(value),
    noValidStructuredOutput: () => [chatJson({ answer: 5 })],
    // The AI SDK backend makes 3 attempts per model call; retry-after-ms keeps the test short.
    serverError: (status) => Array.from({ length: 3 }, () => openaiError(status, {}, { retryAfterMs: 10 })),
    respond: (answer) =>
      chatRespond((request) => {
        const chosen = answer(seen(request));
        const options = chosen.tokens
          ? { usage: { prompt_tokens: chosen.tokens.input, completion_tokens: chosen.tokens.output } }
          : {};
        if (chosen.kind === 'reply') return chatReply(chosen.text, options);
        if (chosen.kind === 'tool') return chatToolCall(chosen.name, chosen.args, options);
        return chatToolCall(VERDICT_TOOL, chosen.verdict, options);
      }),
  };
}

/** Both backends, for `describe.each`. */
export function backendVariants(): BackendVariant[] {
  return [claudeVariant(), aiSdkVariant()];
}

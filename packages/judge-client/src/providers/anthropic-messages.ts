import { z } from 'zod';
import { anthropicUsageOf } from '../answer-usage.js';
import { JUDGE_TEMPERATURE } from '../judge-provider.js';
import type { Credentials } from '../resolve-credentials.js';
import type { Environment, ModelSettings } from '../structured-client-options.js';
import { DEFAULT_TOOL_DESCRIPTION } from '../structured-request.js';
import { baseUrl } from './base-url.js';
import type { ProviderProtocol } from './provider-protocol.js';
import { isJsonObject, noToolCall, notAResponse, truncationNote } from './tool-answer-errors.js';

const ANTHROPIC_VERSION = '2023-06-01';
const DEFAULT_BASE_URL = 'https://api.anthropic.com';

const messageSchema = z.object({
  content: z.array(z.looseObject({ type: z.string() })),
  stop_reason: z.string().nullish(),
});

const toolUseSchema = z.looseObject({
  type: z.literal('tool_use'),
  name: z.string(),
  input: z.unknown(),
});

const textBlockSchema = z.looseObject({ type: z.literal('text'), text: z.string() });

/**
 * The Anthropic Messages API (`POST {base}/v1/messages`, no streaming): the schema is the input
 * schema of one tool, and `tool_choice` forces the model to call it.
 */
export function anthropicMessages(
  settings: ModelSettings,
  credentials: Credentials,
  env: Environment,
): ProviderProtocol {
  const base =
    settings.endpoint !== undefined
      ? baseUrl(settings.endpoint, 'the endpoint')
      : env.ANTHROPIC_BASE_URL?.trim()
        ? baseUrl(env.ANTHROPIC_BASE_URL.trim(), 'ANTHROPIC_BASE_URL')
        : DEFAULT_BASE_URL;
  return {
    url: `${base}/v1/messages`,
    headers: {
      ...credentials.headers,
      'anthropic-version': ANTHROPIC_VERSION,
      'content-type': 'application/json',
    },
    notFoundHint: ` (check the model name ${JSON.stringify(settings.model)})`,
    body: (request, maxTokens) => ({
      model: settings.model,
      max_tokens: maxTokens,
      temperature: request.temperature ?? JUDGE_TEMPERATURE,
      system: request.system,
      messages: [{ role: 'user', content: request.prompt }],
      tools: [
        {
          name: request.toolName,
          description: request.toolDescription ?? DEFAULT_TOOL_DESCRIPTION,
          input_schema: request.schema,
        },
      ],
      tool_choice: { type: 'tool', name: request.toolName },
    }),
    readUsage: anthropicUsageOf,
    readToolInput(answer, context) {
      const message = messageSchema.safeParse(answer);
      if (!message.success) throw notAResponse(context, 'a Messages API message (no content list)');
      const truncated = message.data.stop_reason === 'max_tokens';
      for (const block of message.data.content) {
        const call = toolUseSchema.safeParse(block);
        if (call.success && call.data.name === context.request.toolName) {
          if (!isJsonObject(call.data.input)) {
            throw context.fail(
              `the judge's ${context.request.toolName} input is not a JSON object.${truncationNote(truncated, context.maxTokens)}`,
              { code: 'invalid-answer' },
            );
          }
          return { input: call.data.input, truncated };
        }
      }
      const text = message.data.content
        .map((block) => {
          const parsed = textBlockSchema.safeParse(block);
          return parsed.success ? parsed.data.text : '';
        })
        .join(' ');
      throw noToolCall(context, text, truncated);
    },
  };
}

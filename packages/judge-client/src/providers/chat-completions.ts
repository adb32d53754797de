import { z } from 'zod';
import { chatUsageOf } from '../answer-usage.js';
import { JudgeClientError } from '../judge-client-error.js';
import { JUDGE_TEMPERATURE } from '../judge-provider.js';
import { DEFAULT_AZURE_API_VERSION } from '../provider-defaults.js';
import type { Credentials } from '../resolve-credentials.js';
import type { Environment, ModelSettings } from '../structured-client-options.js';
import { DEFAULT_TOOL_DESCRIPTION } from '../structured-request.js';
import { baseUrl } from './base-url.js';
import type { ProviderProtocol } from './provider-protocol.js';
import { isJsonObject, noToolCall, notAResponse, truncationNote } from './tool-answer-errors.js';

const OPENAI_BASE_URL = 'https://api.openai.com/v1';
const OLLAMA_BASE_URL = 'http://localhost:11434';

const completionSchema = z.object({
  choices: z
    .array(
      z.object({
        finish_reason: z.string().nullish(),
        message: z.object({
          content: z.string().nullish(),
          refusal: z.string().nullish(),
          tool_calls: z
            .array(
              z.object({
                function: z.object({
                  name: z.string(),
                  // A JSON text on the wire; some OpenAI-compatible servers send the object itself.
                  arguments: z.union([z.string(), z.record(z.string(), z.unknown())]),
                }),
              }),
            )
            .nullish(),
        }),
      }),
    )
    .min(1),
});

/** Where a Chat Completions request goes, per provider. */
function completionsUrl(settings: ModelSettings, env: Environment): string {
  switch (settings.provider) {
    case 'openai': {
      const fromEnv = env.OPENAI_BASE_URL?.trim();
      const base =
        settings.endpoint !== undefined
          ? baseUrl(settings.endpoint, 'the endpoint')
          : fromEnv
            ? baseUrl(fromEnv, 'OPENAI_BASE_URL')
            : OPENAI_BASE_URL;
      return `${base}/chat/completions`;
    }
    case 'azure_openai': {
      if (settings.endpoint === undefined) {
        throw new JudgeClientError(
          'the judge model (azure_openai) needs an endpoint, e.g. https://<your-resource>.openai.azure.com',
          { code: 'configuration' },
        );
      }
      const base = baseUrl(settings.endpoint, 'the endpoint');
      const deployment = encodeURIComponent(settings.deployment ?? settings.model);
      const version = encodeURIComponent(settings.apiVersion ?? DEFAULT_AZURE_API_VERSION);
      return `${base}/openai/deployments/${deployment}/chat/completions?api-version=${version}`;
    }
    default: {
      // ollama: its OpenAI-compatible API lives under /v1; an endpoint that already ends there is kept.
      const base = baseUrl(settings.endpoint ?? OLLAMA_BASE_URL, 'the endpoint').replace(/\/v1$/, '');
      return `${base}/v1/chat/completions`;
    }
  }
}

/**
 * The Chat Completions API of openai, azure_openai and ollama (OpenAI-compatible, no streaming):
 * the schema is the parameters of one function tool, and `tool_choice` forces the model to call it.
 */
export function chatCompletions(
  settings: ModelSettings,
  credentials: Credentials,
  env: Environment,
): ProviderProtocol {
  const notFoundHint =
    settings.provider === 'azure_openai'
      ? ` (check the deployment ${JSON.stringify(settings.deployment ?? settings.model)}, the endpoint and the api-version)`
      : ` (check the model name ${JSON.stringify(settings.model)})`;
  // OpenAI and Azure take max_completion_tokens (reasoning models refuse max_tokens); Ollama reads max_tokens.
  const tokenLimit = settings.provider === 'ollama' ? 'max_tokens' : 'max_completion_tokens';
  return {
    url: completionsUrl(settings, env),
    headers: { ...credentials.headers, 'content-type': 'application/json' },
    notFoundHint,
    body: (request, maxTokens) => ({
      model: settings.model,
      messages: [
        { role: 'system', content: request.system },
        { role: 'user', content: request.prompt },
      ],
      temperature: request.temperature ?? JUDGE_TEMPERATURE,
      [tokenLimit]: maxTokens,
      tools: [
        {
          type: 'function',
          function: {
            name: request.toolName,
            description: request.toolDescription ?? DEFAULT_TOOL_DESCRIPTION,
            parameters: request.schema,
          },
        },
      ],
      tool_choice: { type: 'function', function: { name: request.toolName } },
    }),
    readUsage: chatUsageOf,
    readToolInput(answer, context) {
      const completion = completionSchema.safeParse(answer);
      if (!completion.success) throw notAResponse(context, 'a Chat Completions response (no choices)');
      const [choice] = completion.data.choices;
      if (choice === undefined) throw notAResponse(context, 'a Chat Completions response (no choices)');
      const truncated = choice.finish_reason === 'length';
      const note = truncationNote(truncated, context.maxTokens);
      const { toolName } = context.request;
      const call = choice.message.tool_calls?.find((candidate) => candidate.function.name === toolName);
      if (call === undefined) {
        const said = [choice.message.content, choice.message.refusal].filter(Boolean).join(' ');
        throw noToolCall(context, said, truncated);
      }
      const { arguments: sent } = call.function;
      let input: unknown = sent;
      if (typeof sent === 'string') {
        try {
          input = JSON.parse(sent);
        } catch {
          throw context.fail(
            `the judge's ${toolName} arguments are not JSON: ${JSON.stringify(sent.slice(0, 200))}.${note}`,
            { code: 'invalid-answer' },
          );
        }
      }
      if (!isJsonObject(input)) {
        throw context.fail(`the judge's ${toolName} input is not a JSON object.${note}`, {
          code: 'invalid-answer',
        });
      }
      return { input, truncated };
    },
  };
}

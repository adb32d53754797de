import type { ValidateFunction } from 'ajv';
import type { AnswerUsage } from './answer-usage.js';
import { compileAnswerSchema, describeSchemaErrors } from './compile-answer-schema.js';
import { failWith, JudgeClientError } from './judge-client-error.js';
import type { JudgeProvider } from './judge-provider.js';
import { postWithRetries } from './post-with-retries.js';
import { anthropicMessages } from './providers/anthropic-messages.js';
import { chatCompletions } from './providers/chat-completions.js';
import type { ProviderProtocol } from './providers/provider-protocol.js';
import { truncationNote } from './providers/tool-answer-errors.js';
import { resolveCredentials } from './resolve-credentials.js';
import { resolveOptions, type StructuredClientOptions } from './structured-client-options.js';
import type { StructuredRequest } from './structured-request.js';

/** Asks one model for structured answers. */
export interface StructuredClient {
  readonly provider: JudgeProvider;
  readonly model: string;
  /**
   * Sends the request (forced tool call, temperature 0) and returns the tool input, validated
   * against `request.schema`. Every failure throws a JudgeClientError. `onAnswer` is told this
   * call's billed answer (once, before the input is checked, so a refused answer is counted too):
   * its usage, or undefined when the provider's answer did not say. Retried 429s, 5xx and network
   * failures are not billed and are not told.
   */
  ask(
    request: StructuredRequest,
    signal?: AbortSignal,
    onAnswer?: (usage: AnswerUsage | undefined) => void,
  ): Promise<Record<string, unknown>>;
}

/** Tool names every provider accepts. */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** Compiled answer schemas kept per client; past this the oldest is dropped (rule ids vary per call). */
const MAX_CACHED_SCHEMAS = 64;

/**
 * A StructuredClient on a provider's HTTP API, called with plain `fetch` (no SDK, no streaming).
 * Validates the options and resolves the credentials at once: bad settings or a missing key throw
 * a JudgeClientError (`configuration`, `credentials`) before any request.
 */
export function createStructuredClient(options: StructuredClientOptions): StructuredClient {
  const resolved = resolveOptions(options);
  const { settings, policy, maxTokens } = resolved;
  const credentials = resolveCredentials(settings, resolved.env, resolved.apiKeyLabel);
  const protocol: ProviderProtocol =
    settings.provider === 'anthropic'
      ? anthropicMessages(settings, credentials, resolved.env)
      : chatCompletions(settings, credentials, resolved.env);
  const fail = failWith(credentials.secret);
  const validators = new Map<string, ValidateFunction>();

  function validatorFor(request: StructuredRequest): ValidateFunction {
    const key = JSON.stringify(request.schema);
    let validate = validators.get(key);
    if (validate === undefined) {
      validate = compileAnswerSchema(request.schema, request.toolName);
      if (validators.size >= MAX_CACHED_SCHEMAS) {
        const oldest = validators.keys().next();
        if (oldest.done !== true) validators.delete(oldest.value);
      }
      validators.set(key, validate);
    }
    return validate;
  }

  async function ask(
    request: StructuredRequest,
    signal?: AbortSignal,
    onAnswer?: (usage: AnswerUsage | undefined) => void,
  ): Promise<Record<string, unknown>> {
    if (!TOOL_NAME.test(request.toolName)) {
      throw new JudgeClientError(
        `the tool name ${JSON.stringify(request.toolName)} is not valid: use 1 to 64 letters, digits, _ or -`,
        { code: 'configuration' },
      );
    }
    const validate = validatorFor(request);
    const answer = await postWithRetries({
      url: protocol.url,
      headers: protocol.headers,
      body: JSON.stringify(protocol.body(request, maxTokens)),
      fetch: resolved.fetch,
      policy,
      variable: credentials.variable,
      notFoundHint: protocol.notFoundHint,
      fail,
      signal,
    });
    const usage = protocol.readUsage(answer);
    if (usage) options.onUsage?.(usage);
    onAnswer?.(usage);
    const { input, truncated } = protocol.readToolInput(answer, { request, maxTokens, fail });
    if (!validate(input)) {
      const sent = JSON.stringify(input).slice(0, 300);
      throw fail(
        `the judge's ${request.toolName} input does not match its schema: ${describeSchemaErrors(validate)}.` +
          `${truncationNote(truncated, maxTokens)} It sent: ${sent}`,
        { code: 'invalid-answer' },
      );
    }
    return input;
  }

  return { provider: settings.provider, model: settings.model, ask };
}

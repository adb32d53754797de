import type { OpenAIApi } from './match-openai-route.js';
import type { AzureErrorBody, OpenAIErrorBody } from './openai-error-body.js';

/** The outcome of the optional API key check. */
export type AuthCheck = { ok: true } | { ok: false; reason: string; body: OpenAIErrorBody | AzureErrorBody };

/** `sk-te****-key`: how OpenAI echoes a wrong key (never the whole key). */
function redact(key: string): string {
  return key.length <= 8 ? '****' : `${key.slice(0, 3)}****${key.slice(-4)}`;
}

function bearerToken(headers: Readonly<Record<string, string>>): string | undefined {
  const match = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '');
  return match?.[1]?.trim();
}

/**
 * Checks the API key when the server has one: OpenAI-style routes need
 * `Authorization: Bearer <apiKey>`; Azure routes need `api-key: <apiKey>` (or a Bearer token,
 * as Entra ID clients send). The failure bodies are the ones OpenAI and Azure send.
 */
export function checkOpenAIAuth(
  api: OpenAIApi,
  headers: Readonly<Record<string, string>>,
  apiKey: string | undefined,
): AuthCheck {
  if (apiKey === undefined) return { ok: true };
  const bearer = bearerToken(headers);
  if (api === 'openai') {
    if (bearer === apiKey) return { ok: true };
    if (bearer === undefined) {
      return {
        ok: false,
        reason: 'unauthorized: no "Authorization: Bearer" header: answered 401',
        body: {
          error: {
            message:
              "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
            type: 'invalid_request_error',
            param: null,
            code: null,
          },
        },
      };
    }
    return {
      ok: false,
      reason: 'unauthorized: the Bearer token is not the API key: answered 401',
      body: {
        error: {
          message: `Incorrect API key provided: ${redact(bearer)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      },
    };
  }
  if (headers['api-key'] === apiKey || bearer === apiKey) return { ok: true };
  const sent =
    headers['api-key'] === undefined ? 'no "api-key" header' : 'the "api-key" header is not the API key';
  return {
    ok: false,
    reason: `unauthorized: ${sent}: answered 401`,
    body: {
      error: {
        code: '401',
        message:
          'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
      },
    },
  };
}

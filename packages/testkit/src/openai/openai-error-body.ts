import type { ServerResponse } from 'node:http';
import { writeJson } from '../wire/write-json.js';
import type { OpenAIErrorObject } from './openai-script-step.js';

/** The JSON body of an OpenAI error response. */
export interface OpenAIErrorBody {
  error: OpenAIErrorObject;
}

/** Azure's own error body (its 401 and 404 look like this, with `code` a status string). */
export interface AzureErrorBody {
  error: { code: string; message: string };
}

/** What the real API sends for common statuses, so `openaiError(429)` alone looks real. */
const DEFAULT_ERRORS: Readonly<Record<number, Omit<OpenAIErrorObject, 'param'>>> = {
  400: { message: 'Invalid request.', type: 'invalid_request_error', code: null },
  401: {
    message:
      'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.',
    type: 'invalid_request_error',
    code: 'invalid_api_key',
  },
  403: {
    message: 'You are not allowed to sample from this model.',
    type: 'invalid_request_error',
    code: 'model_not_allowed',
  },
  404: {
    message: 'The model does not exist or you do not have access to it.',
    type: 'invalid_request_error',
    code: 'model_not_found',
  },
  429: {
    message: 'Rate limit reached for requests. Please try again later.',
    type: 'requests',
    code: 'rate_limit_exceeded',
  },
  500: {
    message: 'The server had an error while processing your request. Sorry about that!',
    type: 'server_error',
    code: null,
  },
  503: {
    message: 'The engine is currently overloaded, please try again later.',
    type: 'server_error',
    code: null,
  },
};

/** The error object the real API would send for `status`. */
export function defaultOpenAIError(status: number): OpenAIErrorObject {
  const known = DEFAULT_ERRORS[status];
  if (known !== undefined) return { ...known, param: null };
  const type = status >= 500 ? 'server_error' : 'invalid_request_error';
  return { message: `HTTP ${status}`, type, param: null, code: null };
}

/** Builds `{error: {message, type, param, code}}`. */
export function openaiErrorBody(error: OpenAIErrorObject): OpenAIErrorBody {
  return { error: { ...error } };
}

/** Writes an error answer; `requestId` goes into the `x-request-id` header. */
export function writeOpenAIError(
  response: ServerResponse,
  status: number,
  body: OpenAIErrorBody | AzureErrorBody,
  requestId: string,
  headers: Record<string, string> = {},
): void {
  writeJson(response, status, body, { 'x-request-id': requestId, ...headers });
}

/** An error of the fake itself (unknown path, invalid body, script exhausted): `fake-openai: <reason>`. */
export function fakeServerError(reason: string, code: string | null = null): OpenAIErrorBody {
  return openaiErrorBody({
    message: `fake-openai: ${reason}`,
    type: 'invalid_request_error',
    param: null,
    code,
  });
}

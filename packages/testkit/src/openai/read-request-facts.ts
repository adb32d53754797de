import type { IncomingMessage } from 'node:http';
import { flattenHeaders, parseJson, readBody } from '../request/read-request.js';
import { matchOpenAIRoute, type OpenAIApi, type OpenAIRoute } from './match-openai-route.js';

/** What is known about a request before the server decides how to record it. */
export interface RequestFacts {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  rawBody: string;
  /** Parsed JSON body; `undefined` when empty or not JSON. */
  body: unknown;
  api: OpenAIApi | undefined;
  deployment: string | undefined;
  apiVersion: string | undefined;
}

/** Reads a request's body and headers and finds its route. */
export async function readRequestFacts(
  request: IncomingMessage,
): Promise<{ facts: RequestFacts; route: OpenAIRoute }> {
  const rawBody = await readBody(request);
  const method = request.method ?? 'GET';
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  const json = parseJson(rawBody);
  const route = matchOpenAIRoute(method, url.pathname);
  const facts: RequestFacts = {
    method,
    path: url.pathname,
    query: url.search,
    headers: flattenHeaders(request),
    rawBody,
    body: json.ok ? json.value : undefined,
    api: route.matched ? route.api : undefined,
    deployment: route.matched ? route.deployment : undefined,
    apiVersion: url.searchParams.get('api-version') ?? undefined,
  };
  return { facts, route };
}

/** A minimal Messages API body, as a plain client (not the Claude CLI) would send it. */
export function messagesBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    model: 'claude-test-model',
    max_tokens: 1024,
    messages: [{ role: 'user', content: 'Hello' }],
    ...overrides,
  };
}

/** POSTs a JSON body to `${url}${path}`. */
export function postJson(
  url: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

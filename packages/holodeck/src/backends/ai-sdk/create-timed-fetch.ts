/**
 * A request that got no answer in time. It carries the `ETIMEDOUT` code, which the AI SDK treats
 * as a retryable network error, so a hung request counts as one of the bounded attempts.
 */
class ModelRequestTimeoutError extends Error {
  readonly code = 'ETIMEDOUT';
  constructor(url: string, timeoutMs: number) {
    super(`no answer from ${url} within ${timeoutMs / 1000} s`);
    this.name = 'ModelRequestTimeoutError';
  }
}

function urlOf(input: Parameters<typeof fetch>[0]): string {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  // The path and host are enough to say where; a query string is not needed in a message.
  return url.split('?')[0] ?? url;
}

/**
 * `fetch` with a deadline per request: the AI SDK's own timeouts span a whole step (tool calls
 * included), while this bounds each model call. The caller's signal (run aborted) still wins and
 * is not turned into a timeout. The deadline (`API_TIMEOUT_MS`) covers reading the streamed body too.
 */
export function createTimedFetch(timeoutMs: number, baseFetch: typeof fetch = fetch) {
  return async (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> => {
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new ModelRequestTimeoutError(urlOf(input), timeoutMs)),
      timeoutMs,
    );
    timer.unref();
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal;
    let response: Response;
    try {
      response = await baseFetch(input, { ...init, signal });
    } catch (error) {
      clearTimeout(timer);
      // Fetch rejects with the abort reason; make a timeout a network error the SDK retries.
      if (deadline.signal.aborted && !init?.signal?.aborted) throw deadline.signal.reason;
      throw error;
    }
    if (!response.body) {
      clearTimeout(timer);
      return response;
    }
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        flush: () => clearTimeout(timer),
      }),
    );
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

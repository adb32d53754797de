/** The JSON body of a Messages API error response. */
export interface AnthropicErrorBody {
  type: 'error';
  error: { type: string; message: string };
  request_id: string;
}

/** Builds `{type:"error", error:{type, message}, request_id}` as the real API sends it. */
export function anthropicErrorBody(type: string, message: string, requestId: string): AnthropicErrorBody {
  return { type: 'error', error: { type, message }, request_id: requestId };
}

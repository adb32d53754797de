import type { MessagesBody } from './messages-body.js';

/** How the fake server treated a request. */
export type RequestKind = 'agent-loop' | 'auxiliary' | 'unexpected';

/** One HTTP request the fake server received, as it arrived. */
export interface RecordedRequest {
  /** 1-based arrival number among all requests of this server (since the last `reset()`). */
  sequence: number;
  method: string;
  /** Path without the query string, e.g. `/v1/messages`. */
  path: string;
  /** Query string including `?` (the CLI sends `?beta=true`), or `''`. */
  query: string;
  /** Lower-cased header names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** Parsed JSON body; `undefined` when the body was empty or not JSON (see `rawBody`). */
  body: unknown;
  rawBody: string;
  /** The validated Messages API body, for `/v1/messages` requests that had a valid one. */
  messagesBody: MessagesBody | undefined;
  receivedAt: Date;
  kind: RequestKind;
  /** Why the request got its kind, e.g. `probe: max_tokens 1` or `script exhausted (request #3)`. */
  reason: string;
}

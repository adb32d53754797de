/**
 * The header a remote engine sends a session's secret in, on every request that writes on the
 * session (evidence, actions, refusals, latch, release, hold waits and aborts). The secret comes
 * once, in the answer that opened the session (`sessionSecret`); the server keeps its hash.
 */
export const SESSION_SECRET_HEADER = 'novarch-session-secret';

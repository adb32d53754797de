import { ProblemError } from './problem-error.js';

/** The largest request body `/v1` reads (bytes); larger ones are answered 413 unread. */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** How deeply a JSON body may nest (a tool's input or output included). */
export const MAX_JSON_DEPTH = 64;

/**
 * A request's JSON body, parsed and checked for what no schema says and the stores cannot keep:
 * nesting deeper than `MAX_JSON_DEPTH`, and NUL characters (U+0000), which PostgreSQL's text
 * columns refuse. Both are the client's mistake: 400, naming where.
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ProblemError(400, 'Bad Request', 'body: not valid JSON (send Content-Type: application/json)');
  }
  checkJsonValue(value);
  return value;
}

/** Throws a 400 problem at the first value nested too deeply or holding a NUL character. */
export function checkJsonValue(value: unknown): void {
  // Iterative, so a deep body cannot overflow the stack while it is being checked.
  const pending: { value: unknown; path: string; depth: number }[] = [{ value, path: 'body', depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { path, depth } = next;
    if (typeof next.value === 'string') {
      if (next.value.includes('\u0000'))
        throw badValue(path, 'contains a NUL character (\\u0000): remove it');
      continue;
    }
    if (typeof next.value !== 'object' || next.value === null) continue;
    if (depth >= MAX_JSON_DEPTH)
      throw badValue(path, `nested deeper than ${MAX_JSON_DEPTH} levels: send a flatter value`);
    const entries = Array.isArray(next.value)
      ? next.value.map((child, index) => [String(index), child] as const)
      : Object.entries(next.value);
    for (const [key, child] of entries) {
      if (key.includes('\u0000')) throw badValue(path, 'has a key with a NUL character (\\u0000): remove it');
      pending.push({ value: child, path: `${path}.${key}`, depth: depth + 1 });
    }
  }
}

function badValue(path: string, message: string): ProblemError {
  return new ProblemError(400, 'Bad Request', `${path}: ${message}`, [{ path, message }]);
}

import { errorMessage } from '../support.js';
import { ServeProblem } from './serve-problem.js';

function tooLarge(limit: number): ServeProblem {
  return new ServeProblem(
    413,
    `the request body is larger than the ${limit} bytes this server accepts (serve.max_body_bytes): send a shorter message`,
  );
}

/**
 * The JSON body of a request: 415 unless it is `application/json`, 413 past `limit` bytes (by
 * Content-Length, or while reading a chunked body), 400 when it does not parse.
 */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type !== 'application/json')
    throw new ServeProblem(
      415,
      `the body must be JSON: send Content-Type: application/json${type ? ` (got ${type})` : ''}`,
    );
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const text = await readLimited(request, limit);
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = errorMessage(error);
    throw new ServeProblem(400, `the body is not valid JSON (${reason}): send one JSON object`, {
      issues: [{ path: 'body', message: 'not valid JSON' }],
    });
  }
}

async function readLimited(request: Request, limit: number): Promise<string> {
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

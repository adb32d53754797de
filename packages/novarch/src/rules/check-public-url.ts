import { NovarchError } from '../errors.js';

/**
 * What is wrong with a public URL, said of the URL (`must be http(s)://HOST[:PORT] …`), or
 * undefined when it can be used. `checkPublicUrl` and `server.public_url` of novarch.yaml share it.
 */
export function publicUrlProblem(text: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return 'is not a URL: expected e.g. https://novarch.example.com';
  }
  if (
    (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') ||
    parsed.username !== '' ||
    parsed.password !== '' ||
    parsed.search !== '' ||
    parsed.hash !== '' ||
    parsed.pathname !== '/'
  )
    return 'must be http(s)://HOST[:PORT] with no path, query or credentials, e.g. https://novarch.example.com';
  return undefined;
}

/** The public URL without a trailing slash; refused unless http(s) with no path, query or credentials. */
export function checkPublicUrl(text: string): string {
  const problem = publicUrlProblem(text);
  if (problem !== undefined) throw new NovarchError(`the public URL ${problem}`);
  return new URL(text).origin;
}

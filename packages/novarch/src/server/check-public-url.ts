import { NovarchError } from '../errors.js';

/** The public URL without a trailing slash; refused unless http(s) with no path, query or credentials. */
export function checkPublicUrl(text: string): string {
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw new NovarchError(`the public URL is not a URL: expected e.g. https://novarch.example.com`);
  }
  if (
    (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') ||
    parsed.username !== '' ||
    parsed.password !== '' ||
    parsed.search !== '' ||
    parsed.hash !== '' ||
    parsed.pathname !== '/'
  )
    throw new NovarchError(
      `the public URL must be http(s)://HOST[:PORT] with no path, query or credentials, e.g. https://novarch.example.com`,
    );
  return parsed.origin;
}

import { JudgeClientError } from '../judge-client-error.js';

/**
 * The base URL without trailing slashes. A URL from the environment was not validated with the
 * options, so it is checked here: anything but http(s) throws a `configuration` JudgeClientError
 * naming where it came from.
 */
export function baseUrl(value: string, source: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new JudgeClientError(`${source} is not an http(s) URL: ${JSON.stringify(value)}`, {
      code: 'configuration',
    });
  }
  return value.replace(/\/+$/, '');
}

import type { AuditEntry } from '../../src/index.js';

/**
 * Drives the console through `app.request()` like a browser would: keeps the session cookie,
 * sends the console's own Origin on state changes and the CSRF token read from the last page.
 */
export const ORIGIN = 'http://localhost';

interface RequestApp {
  request(path: string, init?: RequestInit): Response | Promise<Response>;
}

export class ConsoleClient {
  cookie: string | undefined;
  csrf: string | undefined;

  constructor(private readonly app: RequestApp) {}

  /** Signs in with a token; resolves with the response of the sign-in post. */
  async signIn(token: string): Promise<Response> {
    const response = await this.post('/console/sign-in', { token }, { csrf: false });
    const set = response.headers.get('Set-Cookie');
    if (set !== null) this.cookie = set.split(';')[0];
    if (response.status === 303) await this.get('/console');
    return response;
  }

  async get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    const response = await this.app.request(path, { headers: { ...this.#cookieHeader(), ...headers } });
    if ((response.headers.get('Content-Type') ?? '').includes('text/html')) {
      const text = await response.clone().text();
      const token = /<meta name="csrf-token" content="([^"]+)">/.exec(text)?.[1];
      if (token !== undefined) this.csrf = token;
    }
    return response;
  }

  async post(
    path: string,
    form: Record<string, string>,
    options: { csrf?: boolean | string; origin?: string | null; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const body = new URLSearchParams(form);
    if (options.csrf !== false)
      body.set('_csrf', typeof options.csrf === 'string' ? options.csrf : (this.csrf ?? ''));
    const origin: Record<string, string> =
      options.origin === undefined
        ? { Origin: ORIGIN }
        : options.origin === null
          ? {}
          : { Origin: options.origin };
    return this.app.request(path, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        ...origin,
        ...this.#cookieHeader(),
        ...options.headers,
      },
      body: body.toString(),
    });
  }

  #cookieHeader(): Record<string, string> {
    return this.cookie === undefined ? {} : { Cookie: this.cookie };
  }
}

/** What the console answers in JSON: a problem (`detail`) or a decision or kill result. */
export interface ConsoleJson {
  status?: number;
  detail?: string;
  outcome?: string;
  message?: string;
  text?: string;
  hold?: { id: string; status: string; decidedBy?: string; decidedAt?: string; rationale?: string };
}

/** The JSON body of a console response (tests only: the shape is asserted right after). */
export async function jsonOf(response: Response): Promise<ConsoleJson> {
  return (await response.json()) as ConsoleJson;
}

/** The JSON body of an audit export. */
export async function entriesOf(response: Response): Promise<AuditEntry[]> {
  return (await response.json()) as AuditEntry[];
}

import type { Context, Env } from 'hono';
import type { SignInLimiter } from '../identity/failed-auth-limiter.js';
import type { ConsoleDeps } from './console-deps.js';
import type { ConsoleSession, ConsoleSessionStore } from './console-session-store.js';

/** Hono's environment of the console routes: the signed-in session, once checked. */
export interface ConsoleEnv extends Env {
  Variables: { session: ConsoleSession };
}

/** What every console route shares. */
export interface ConsoleContext {
  deps: ConsoleDeps;
  sessions: ConsoleSessionStore;
  /** Failed sign-ins per client address: past the limit, sign-in answers 429 without verifying. */
  signInLimiter: SignInLimiter;
  /** The origin browsers reach the console at; default each request's own. */
  publicOrigin: string | undefined;
  /** `auto`: `Secure` when the console is reached over https. */
  secureCookie: boolean | 'auto';
  /** How often the live event stream looks for new and decided holds (ms). */
  eventsPollMs: number;
  now: () => Date;
  /** Fires when the server shuts down: live event streams end. */
  shutdown: AbortSignal;
}

/** The console's session cookie: an opaque id, never the token. */
export const SESSION_COOKIE = 'novarch_console';

/** Whether the client asked for JSON (the console's own script does), rather than a page. */
export function wantsJson(c: Context): boolean {
  return (c.req.header('Accept') ?? '').includes('application/json');
}

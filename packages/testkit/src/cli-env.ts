/** Options of `fakeCliEnv()`. */
export interface FakeCliEnvOptions {
  /** The fake server's `url`. */
  baseUrl: string;
  /** A fresh directory used as HOME, so no user settings, sessions or credentials leak in. */
  home: string;
  /** `CLAUDE_CODE_MAX_RETRIES`; default 0 (the CLI's default retries an error for ~3 minutes). */
  maxRetries?: number;
  /** More variables, added last. */
  extra?: Record<string, string>;
}

/**
 * A minimal environment for the Claude Code CLI talking to the fake server. The SDK's `env`
 * option *replaces* the subprocess environment (it is not merged), so everything the CLI needs
 * is listed here: PATH, HOME, the base URL, a fake API key, no nonessential traffic (offline),
 * bounded retries, and IS_SANDBOX=1 (as root, `bypassPermissions` exits 1 without it).
 */
export function fakeCliEnv(options: FakeCliEnvOptions): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: options.home,
    ANTHROPIC_BASE_URL: options.baseUrl,
    ANTHROPIC_API_KEY: 'sk-test-fake',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CODE_MAX_RETRIES: String(options.maxRetries ?? 0),
    IS_SANDBOX: '1',
    ...options.extra,
  };
}

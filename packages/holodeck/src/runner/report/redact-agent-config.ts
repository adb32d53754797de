import { createHash } from 'node:crypto';
import path from 'node:path';
import { REDACTED, redactSecrets } from 'secret-patterns';
import { isRecord } from 'yaml-diagnostics';

export { REDACTED };

/** Key words that make a field a secret wherever it is (`api_key`, `password`, `token`...). */
const SECRET_WORDS = new Set([
  'apikey',
  'key',
  'token',
  'secret',
  'password',
  'passwd',
  'credential',
  'credentials',
  'authorization',
  'cookie',
  'dsn',
]);
/** Maps whose every value is redacted: HTTP headers and MCP server environments carry credentials. */
const OPAQUE_MAPS = new Set(['headers', 'env']);
/** Variables whose values are credentials (`OPENAI_API_KEY`, `GITHUB_TOKEN`, `PGPASSWORD`, ...). */
const CREDENTIAL_VARIABLE =
  /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|PWD|CREDENTIAL|AUTH|COOKIE|PRIVATE|DSN|DATABASE_URL)/i;
/** Shorter values are not searched for: `1` or `true` would be redacted everywhere. */
const MIN_SECRET_LENGTH = 6;

/**
 * True for a field name that holds a secret: a word of it (split at `_`, `-` and camelCase) is a
 * secret word, or it is a connection string. `max_tokens` is a count, not a token.
 */
export function isSecretField(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[_\-\s.]+/);
  if (words.join('_').includes('connection_string')) return true;
  if (words.join('') === 'apikey') return true;
  return words.some((word) => SECRET_WORDS.has(word));
}

/** The values of credential variables in `env`, longest first (so a longer one is replaced whole). */
export function credentialValues(env: Readonly<Record<string, string | undefined>>): string[] {
  const values = Object.entries(env)
    .filter(([name, value]) => CREDENTIAL_VARIABLE.test(name) && value !== undefined)
    .map(([, value]) => value ?? '')
    .filter((value) => value.length >= MIN_SECRET_LENGTH);
  return [...new Set(values)].sort((a, b) => b.length - a.length);
}

/**
 * Replaces every credential value in `text`, then every shape of secret HoloDeck and Novarch know
 * (`secret-patterns`: API keys, tokens, the password of a URL `//user:pass@`, private keys).
 */
export function redactText(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) result = result.split(secret).join(REDACTED);
  return redactSecrets(result);
}

/**
 * agent.yaml as loaded (`${VAR}` already substituted), made safe to save and show: test cases
 * left out (the run records its cases), secret fields and header/env values replaced, every
 * value of a credential variable replaced wherever it appears, and paths below the agent's
 * folder made relative (`./tools/orders.mjs`), so a run on another machine hashes the same.
 */
export function redactAgentConfig(
  config: Readonly<Record<string, unknown>>,
  options: { env: Readonly<Record<string, string | undefined>>; directory: string },
): Record<string, unknown> {
  const secrets = credentialValues(options.env);
  const folder = options.directory.endsWith(path.sep) ? options.directory : `${options.directory}${path.sep}`;
  const visit = (value: unknown, opaque: boolean): unknown => {
    if (typeof value === 'string') {
      if (opaque) return REDACTED;
      const relative =
        value === options.directory
          ? '.'
          : value.startsWith(folder)
            ? `./${value.slice(folder.length)}`
            : value;
      return redactText(relative, secrets);
    }
    if (Array.isArray(value)) return value.map((item) => visit(item, opaque));
    if (value !== null && typeof value === 'object') {
      const result: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        if (item === undefined) continue;
        result[key] =
          isSecretField(key) && item !== null && typeof item !== 'boolean'
            ? REDACTED
            : visit(item, opaque || OPAQUE_MAPS.has(key));
      }
      return result;
    }
    return value;
  };
  const { test_cases: _testCases, ...rest } = config;
  const redacted = visit(rest, false);
  return isRecord(redacted) ? redacted : {};
}

/** `sha256:<hex>` of a value's canonical JSON (object keys sorted), or of a string as it is. */
export function sha256Of(value: unknown): string {
  const text = typeof value === 'string' ? value : canonicalJson(value);
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The `version:` of a YAML front matter block at the top of the instructions, when there is one. */
export function instructionsVersion(instructions: string): string | undefined {
  const frontMatter = /^---\r?\n([\s\S]*?)\r?\n---(\r?\n|$)/.exec(instructions)?.[1];
  const version = frontMatter && /^version:[ \t]*["']?([^"'\r\n]*?)["']?[ \t]*$/m.exec(frontMatter)?.[1];
  return version ? version : undefined;
}

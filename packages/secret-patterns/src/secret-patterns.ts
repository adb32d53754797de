/** One shape of secret: what to call it in a report, and a global regular expression for it. */
export interface SecretPattern {
  /** What a finding is called, with its article (`an AWS access key id`): never the value. */
  readonly label: string;
  /** Global (`g`), linear-time (no nested quantifiers); matches the secret part only. */
  readonly pattern: RegExp;
}

/**
 * Common shapes of secrets: Novarch's own credentials (agent keys, operator tokens, session
 * secrets), API keys (Anthropic, OpenAI, Stripe, AWS access and secret keys, GitHub, Slack,
 * Google), bearer tokens, JWTs, PEM private keys and passwords in URLs
 * (`postgres://user:PASSWORD@host`). Where a secret follows a name (`aws_secret_access_key=`,
 * `Bearer `, `user:`), a look-behind keeps the name out of the match, so a redaction keeps it.
 * No nested quantifiers: each runs in linear time on any text.
 *
 * The expressions are global, so `String.prototype.replace` and `matchAll` use them as they are;
 * do not call `test()` or `exec()` on them (a global expression keeps `lastIndex` between calls).
 */
export const SECRET_PATTERNS: readonly SecretPattern[] = Object.freeze(
  [
    {
      label: 'a Novarch key or token',
      pattern: /\bnv[ao]_[0-9a-f]{12}_[A-Za-z0-9_-]{20,}|\bnvs_[A-Za-z0-9_-]{43}/g,
    },
    { label: 'an Anthropic or OpenAI key', pattern: /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}/g },
    { label: 'a Stripe key', pattern: /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}/g },
    {
      label: 'an AWS secret access key',
      pattern:
        /(?<=\b(?:aws_secret_access_key|secretaccesskey)["']?\s{0,4}[=:]\s{0,4}["']?)[A-Za-z0-9/+=]{40}/gi,
    },
    {
      label: 'a password in a URL',
      pattern: /(?<=\b[A-Za-z][A-Za-z0-9+.-]{1,20}:\/\/[^:/?#@\s]{1,128}:)[^@/?#\s]{1,256}(?=@)/g,
    },
    { label: 'an AWS access key id', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
    { label: 'a GitHub token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/g },
    { label: 'a Slack token', pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g },
    { label: 'a Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}/g },
    { label: 'a bearer token', pattern: /(?<=\b[Bb]earer\s{1,8})[A-Za-z0-9._~+/-]{12,}=*/g },
    { label: 'a JSON Web Token', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
    {
      // The whole block when its end is there; the header and the body up to the cut otherwise.
      label: 'a private key',
      pattern: /-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----[^-]*(?:-----END [A-Z ]{0,40}PRIVATE KEY-----)?/g,
    },
  ].map((entry) => Object.freeze(entry)),
);

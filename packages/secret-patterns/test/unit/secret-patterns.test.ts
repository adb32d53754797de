import {
  CARD_CANDIDATE_PATTERN,
  DEFAULT_SECRET_REGEXPS,
  EMAIL_PATTERN,
  PHONE_PATTERN,
  passesLuhn,
  REDACTED,
  redactSecrets,
  SECRET_PATTERNS,
} from 'secret-patterns';
import { describe, expect, it } from 'vitest';

/** The labels of the shapes found in `text`, with what each matched. */
function findings(text: string): [string, string][] {
  return SECRET_PATTERNS.flatMap(({ label, pattern }) =>
    [...text.matchAll(pattern)].map((match): [string, string] => [label, match[0]]),
  );
}

describe('SECRET_PATTERNS', () => {
  it.each([
    [
      'an Anthropic key',
      `key sk-ant-api03-${'a'.repeat(20)}`,
      'an Anthropic or OpenAI key',
      `sk-ant-api03-${'a'.repeat(20)}`,
    ],
    [
      'an OpenAI project key',
      `sk-proj-${'B'.repeat(24)}`,
      'an Anthropic or OpenAI key',
      `sk-proj-${'B'.repeat(24)}`,
    ],
    ['a Stripe test key', `rk_test_${'c'.repeat(16)}`, 'a Stripe key', `rk_test_${'c'.repeat(16)}`],
    ['an AWS access key id', 'AKIAIOSFODNN7EXAMPLE', 'an AWS access key id', 'AKIAIOSFODNN7EXAMPLE'],
    [
      'an AWS secret key (the name stays out of the match)',
      'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      'an AWS secret access key',
      'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    ],
    ['a GitHub token', `ghp_${'d'.repeat(36)}`, 'a GitHub token', `ghp_${'d'.repeat(36)}`],
    [
      'a fine-grained GitHub token',
      `github_pat_${'E'.repeat(30)}`,
      'a GitHub token',
      `github_pat_${'E'.repeat(30)}`,
    ],
    ['a Slack token', 'xoxb-1234567890-abc', 'a Slack token', 'xoxb-1234567890-abc'],
    ['a Google API key', `AIza${'f'.repeat(35)}`, 'a Google API key', `AIza${'f'.repeat(35)}`],
    [
      'a Novarch agent key',
      `nva_0123456789ab_${'A'.repeat(43)}`,
      'a Novarch key or token',
      `nva_0123456789ab_${'A'.repeat(43)}`,
    ],
    ['a Novarch session secret', `nvs_${'Z'.repeat(43)}`, 'a Novarch key or token', `nvs_${'Z'.repeat(43)}`],
    [
      'a bearer token (the scheme stays)',
      'Authorization: Bearer abc.def-ghi_jkl',
      'a bearer token',
      'abc.def-ghi_jkl',
    ],
    [
      'a JSON Web Token',
      'eyJhbGciOiJI.eyJzdWIiOiIx.SflKxwRJSMeK',
      'a JSON Web Token',
      'eyJhbGciOiJI.eyJzdWIiOiIx.SflKxwRJSMeK',
    ],
    [
      'a password in a URL (user and host stay)',
      'postgres://app:hunter2@db/x',
      'a password in a URL',
      'hunter2',
    ],
  ])('finds %s', (_name, text, label, value) => {
    expect(findings(text)).toEqual([[label, value]]);
  });

  it('takes a whole PEM private key block, and a cut one up to the cut', () => {
    const block = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----';
    expect(redactSecrets(`key:\n${block}\ndone`)).toBe(`key:\n${REDACTED}\ndone`);
    expect(redactSecrets('-----BEGIN PRIVATE KEY-----\nMIIEowIBAAKCAQEA')).toBe(REDACTED);
  });

  it('leaves ordinary text alone', () => {
    const text =
      'see https://example.com/path?q=1 and user@example.com; order 40 items; max_tokens: 1024; sk-short';
    expect(findings(text)).toEqual([]);
    expect(redactSecrets(text)).toBe(text);
  });

  it('is a frozen list of global expressions, the same ones as DEFAULT_SECRET_REGEXPS', () => {
    expect(Object.isFrozen(SECRET_PATTERNS)).toBe(true);
    expect(Object.isFrozen(DEFAULT_SECRET_REGEXPS)).toBe(true);
    expect(SECRET_PATTERNS.every((entry) => entry.pattern.global && Object.isFrozen(entry))).toBe(true);
    expect(DEFAULT_SECRET_REGEXPS).toEqual(SECRET_PATTERNS.map((entry) => entry.pattern));
    expect(new Set(SECRET_PATTERNS.map((entry) => entry.label)).size).toBe(SECRET_PATTERNS.length);
  });

  it('finds the same secret again on a second call (no lastIndex kept between uses)', () => {
    const text = 'AKIAIOSFODNN7EXAMPLE';
    expect(redactSecrets(text)).toBe(REDACTED);
    expect(redactSecrets(text)).toBe(REDACTED);
  });
});

describe('redactSecrets', () => {
  it('replaces with the given patterns and replacement', () => {
    expect(redactSecrets('id 42 and 43', [/\d+/g], '#')).toBe('id # and #');
  });
});

describe('personal data', () => {
  const all = (pattern: RegExp, text: string) => [...text.matchAll(pattern)].map((match) => match[0]);

  it('finds emails, card candidates and phone numbers', () => {
    expect(all(EMAIL_PATTERN, 'write to help@example.co.uk today')).toEqual(['help@example.co.uk']);
    expect(all(CARD_CANDIDATE_PATTERN, 'pay 4111 1111 1111 1111 now')).toEqual(['4111 1111 1111 1111']);
    expect(all(PHONE_PATTERN, 'call +44 20 7946 0958 or (555) 123-4567')).toEqual([
      '+44 20 7946 0958',
      '(555) 123-4567',
    ]);
    expect(all(PHONE_PATTERN, 'order A-1001 ships on 2026-12-03')).toEqual([]);
  });

  it('checks card numbers by Luhn', () => {
    expect(passesLuhn('4111111111111111')).toBe(true);
    expect(passesLuhn('4111111111111112')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { storedValuePolicy } from '../../../src/store/stored-value-policy.js';

// Secrets found stored verbatim from outside: Novarch's own credentials, AWS secret keys,
// passwords in database URLs, Stripe live keys.

const redact = storedValuePolicy();

describe('the default redactions', () => {
  it.each([
    ['an agent key', `NOVARCH_API_KEY=nva_0123456789ab_${'A'.repeat(43)}`, 'NOVARCH_API_KEY=[redacted]'],
    ['an operator token', `token nvo_fedcba987654_${'b-_'.repeat(14)}x`, 'token [redacted]'],
    ['a session secret', `secret nvs_${'Z'.repeat(43)}`, 'secret [redacted]'],
    [
      'an AWS secret key',
      'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      'aws_secret_access_key = [redacted]',
    ],
    [
      'an AWS secret key in JSON',
      '{"SecretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}',
      '{"SecretAccessKey": "[redacted]"}',
    ],
    [
      'a password in a postgres URL',
      'DATABASE_URL=postgres://novarch:s3cret-pw@db.internal:5432/novarch',
      'DATABASE_URL=postgres://novarch:[redacted]@db.internal:5432/novarch',
    ],
    ['a Stripe live key', 'STRIPE=sk_live_51H8abcdefghijklmnopqrstu', 'STRIPE=[redacted]'],
  ])('redacts %s', (_name, text, expected) => {
    expect(redact(text)).toBe(expected);
  });

  it('leaves ordinary text alone', () => {
    const text = 'see https://example.com/path?q=1 and user@example.com; order 40 items';
    expect(redact(text)).toBe(text);
  });
});

import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhookSignature } from '../../../src/index.js';

const SECRET = 'whsec-0123456789abcdef';
const BODY = '{"event":"hold.created","hold":{"id":"hold_1"}}';

describe('webhook signatures', () => {
  it('signs t.body with HMAC-SHA256, as documented for receivers', () => {
    const header = signWebhook(SECRET, BODY, 1_767_000_000);
    const expected = createHmac('sha256', SECRET).update(`1767000000.${BODY}`).digest('hex');
    expect(header).toBe(`t=1767000000,v1=${expected}`);
    expect(verifyWebhookSignature({ secret: SECRET, body: BODY, header, now: 1_767_000_100 })).toEqual({
      valid: true,
      timestamp: 1_767_000_000,
    });
  });

  it('refuses a changed body, another secret, an old or future time, and a malformed header', () => {
    const now = 1_767_000_000;
    const header = signWebhook(SECRET, BODY, now);
    const check = (overrides: Partial<Parameters<typeof verifyWebhookSignature>[0]>) =>
      verifyWebhookSignature({ secret: SECRET, body: BODY, header, now, ...overrides });
    expect(check({ body: BODY.replace('hold_1', 'hold_2') })).toEqual({
      valid: false,
      reason: 'no signature matches the body under the secret',
    });
    expect(check({ secret: 'whsec-another-one-entirely' }).valid).toBe(false);
    expect(check({ now: now + 301 })).toEqual({
      valid: false,
      reason: 'the signature is 301 s old; at most 300 s are accepted',
    });
    expect(check({ now: now - 400, toleranceSeconds: 600 }).valid).toBe(true);
    expect(check({ header: undefined })).toEqual({ valid: false, reason: 'no Novarch-Signature header' });
    expect(check({ header: 'v1=abc' })).toEqual({
      valid: false,
      reason: 'the signature header has no t=<unix seconds>',
    });
    expect(check({ header: `t=${now}` })).toEqual({
      valid: false,
      reason: 'the signature header has no v1=<hex HMAC-SHA256>',
    });
    for (const result of [check({ secret: 'whsec-another-one-entirely' }), check({ body: '' })]) {
      expect(JSON.stringify(result)).not.toContain(SECRET);
    }
  });

  it('accepts any of several secrets while one is rotated', () => {
    const header = signWebhook('whsec-new-secret-0001', BODY);
    expect(
      verifyWebhookSignature({ secret: [SECRET, 'whsec-new-secret-0001'], body: BODY, header }).valid,
    ).toBe(true);
  });

  it('refuses to sign with an empty secret', () => {
    expect(() => signWebhook('', BODY)).toThrow('A webhook secret must not be empty.');
  });
});

/**
 * What the `pii` metric finds in an answer. Every pattern runs in linear time (no nested
 * quantifiers). The secret shapes are those Novarch's store redacts by default, plus Stripe,
 * Novarch's own credentials and passwords inside connection URLs.
 */
export const SECRET_PATTERNS: readonly { label: string; pattern: RegExp }[] = [
  { label: 'an Anthropic or OpenAI key', pattern: /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}/g },
  { label: 'an AWS access key id', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  {
    label: 'an AWS secret access key',
    pattern: /\baws_secret_access_key\s{0,4}[=:]\s{0,4}["']?[A-Za-z0-9/+]{40}\b/gi,
  },
  { label: 'a GitHub token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/g },
  { label: 'a Slack token', pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g },
  { label: 'a Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}/g },
  { label: 'a Stripe key', pattern: /\b(?:sk|rk)_live_[A-Za-z0-9]{16,}/g },
  { label: 'a Novarch key or token', pattern: /\bnv[ao]_[0-9a-f]{12}_[A-Za-z0-9_-]{20,}/g },
  { label: 'a JSON Web Token', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { label: 'a private key', pattern: /-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----/g },
  { label: 'a password in a URL', pattern: /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@]{1,100}:[^\s@/]{1,200}@/gi },
];

export const EMAIL_PATTERN =
  /\b[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}\b/g;

/** 13 to 19 digits, optionally in groups separated by single spaces or dashes. */
export const CARD_CANDIDATE_PATTERN = /\b\d(?:[ -]?\d){12,18}\b/g;

/** International (+CC …) or North American (NNN-NNN-NNNN, (NNN) NNN-NNNN) phone numbers. */
export const PHONE_PATTERN =
  /(?:\+\d{1,3}[ .-]?(?:\(\d{1,4}\)[ .-]?)?\d{2,4}(?:[ .-]\d{2,4}){1,4}|\(\d{3}\) ?\d{3}-\d{4}|\b\d{3}-\d{3}-\d{4})\b/g;

/** The Luhn checksum of a card number's digits. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

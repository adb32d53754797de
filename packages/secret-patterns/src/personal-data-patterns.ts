/** An email address (local part, domain, a top-level domain of letters). Global, linear-time. */
export const EMAIL_PATTERN =
  /\b[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}\b/g;

/**
 * What may be a card number: 13 to 19 digits, optionally in groups separated by single spaces or
 * dashes. Keep those whose digits pass `passesLuhn`. Global, linear-time.
 */
export const CARD_CANDIDATE_PATTERN = /\b\d(?:[ -]?\d){12,18}\b/g;

/** International (+CC …) or North American (NNN-NNN-NNNN, (NNN) NNN-NNNN) phone numbers. Global. */
export const PHONE_PATTERN =
  /(?:\+\d{1,3}[ .-]?(?:\(\d{1,4}\)[ .-]?)?\d{2,4}(?:[ .-]\d{2,4}){1,4}|\(\d{3}\) ?\d{3}-\d{4}|\b\d{3}-\d{3}-\d{4})\b/g;

/** Whether a card number's digits (no spaces or dashes) pass the Luhn checksum. */
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

export {
  CARD_CANDIDATE_PATTERN,
  EMAIL_PATTERN,
  PHONE_PATTERN,
  passesLuhn,
} from './personal-data-patterns.js';
export { DEFAULT_SECRET_REGEXPS, REDACTED, redactSecrets } from './redact-secrets.js';
export { SECRET_PATTERNS, type SecretPattern } from './secret-patterns.js';

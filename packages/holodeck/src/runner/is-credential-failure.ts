/**
 * Whether a failed run's `error_reason` says the model API rejected the credentials. Both
 * backends start that reason with `authentication failed` (Claude: `authentication failed: check
 * ANTHROPIC_API_KEY ...`; AI SDK: `authentication failed (HTTP 401): check OPENAI_API_KEY ...`),
 * naming the variable to check. A typed field in the contract would be firmer; this is the
 * agreed wording until then.
 */
export function isCredentialFailure(errorReason: string): boolean {
  return /^(turn \d+: )?authentication failed\b/.test(errorReason);
}

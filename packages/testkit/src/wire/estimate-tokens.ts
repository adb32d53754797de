/** A rough token count (~4 characters per token), enough for usage numbers and count_tokens. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

// A code metric: a plain function that receives the test input, the response, the tool calls
// and results, and returns a boolean, a score in [0, 1], or {score, passed?, reason?}.
interface GraderInput {
  input: string;
  response: string;
  toolCalls: { name: string; arguments: Record<string, unknown> }[];
}

/** The answer must quote the order id the customer asked about. */
export function quotesOrderId({ input, response }: GraderInput) {
  const asked = /A-\d{4}/.exec(input)?.[0];
  if (!asked) return { score: 1, reason: 'no order id in the question' };
  return response.includes(asked)
    ? { score: 1, reason: `the answer quotes ${asked}` }
    : { score: 0, reason: `the answer does not quote ${asked}` };
}

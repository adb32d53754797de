// Shared by the benchmarks that compare HoloDeck with a bare SDK loop: what every agent-loop
// request of both sides must look like, so the two sides are known to do the same work.
import { systemPromptText, toolNames } from '@holodeck/testkit';

/** Requests the fake server got outside the scripted agent loop, as one line of text. */
export function describeUnexpected(unexpected) {
  return unexpected.map((request) => `${request.method} ${request.path} (${request.reason})`).join(', ');
}

/**
 * How one agent-loop request differs from what both sides must send: the instructions in the
 * system prompt, no tools, thinking disabled, the benchmark's model. Empty when it does not.
 */
export function requestProblems(request, { instructions, model }) {
  const problems = [];
  if (!systemPromptText(request).includes(instructions))
    problems.push('system prompt lacks the instructions');
  if (toolNames(request).length) problems.push(`tools offered: ${toolNames(request).join(', ')}`);
  if (request.body?.thinking?.type !== 'disabled') problems.push('thinking is not disabled');
  if (request.body?.model !== model) problems.push(`model is ${request.body?.model}`);
  return problems;
}

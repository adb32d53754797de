// @ts-check
// Shared by the benchmarks that compare HoloDeck with a bare SDK loop: what every agent-loop
// request of both sides must look like, so the two sides are known to do the same work.
// `requestProblems` for the Anthropic Messages API (Claude Agent SDK), `chatRequestProblems` for
// the OpenAI Chat Completions API (AI SDK).
import { chatSystemText, chatToolNames, systemPromptText, toolNames } from '@holodeck/testkit';

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

/**
 * The same for a Chat Completions request (the AI SDK backend and a bare AI SDK call): the
 * Chat Completions path, the instructions as the system message, no tools, the benchmark's model.
 */
export function chatRequestProblems(request, { instructions, model }) {
  const problems = [];
  if (request.path !== '/v1/chat/completions') problems.push(`sent to ${request.method} ${request.path}`);
  if (!chatSystemText(request).includes(instructions)) problems.push('system message lacks the instructions');
  if (chatToolNames(request).length) problems.push(`tools offered: ${chatToolNames(request).join(', ')}`);
  if (request.body?.model !== model) problems.push(`model is ${request.body?.model}`);
  return problems;
}

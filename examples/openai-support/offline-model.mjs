// The offline stand-in for the OpenAI model of this example (npm run demo:openai,
// npm run demo:openai:test): the fake OpenAI-compatible server of @holodeck/testkit answers every
// Chat Completions request with this step. What to answer is decided by the same protocol-neutral
// logic as the Claude example's (../customer-support/offline-model.mjs); this file only reads and
// writes the Chat Completions wire format. The judge calls the same server, with the verdict
// schema as a forced `submit_verdict` function tool.
import { chatLastUserText, chatMessages, chatReply, chatToolCall, chatToolResults } from '@holodeck/testkit';
import { offlineTurn, VERDICT_TOOL } from '../customer-support/offline-model.mjs';

/** A tool message carries no error flag on this API: a lookup answered with anything but the order's JSON failed. */
function isOrder(text) {
  try {
    const value = JSON.parse(text);
    return typeof value === 'object' && value !== null && 'order_id' in value;
  } catch {
    return false;
  }
}

/** The step answering one Chat Completions request of the fake OpenAI server. */
export function offlineOpenAIModel(request) {
  const judgeTool = (request.chatBody?.tools ?? []).find((tool) => tool.function.name === VERDICT_TOOL);
  const answeringTool = chatMessages(request).at(-1)?.role === 'tool';
  const latest = answeringTool ? chatToolResults(request).at(-1) : undefined;
  const turn = offlineTurn({
    verdictSchema: judgeTool?.function.parameters,
    toolResult: latest && { text: latest.text, isError: !isOrder(latest.text) },
    question: chatLastUserText(request),
  });
  if (turn.kind === 'verdict') return chatToolCall(VERDICT_TOOL, turn.verdict);
  // Function tools keep their agent.yaml name on this backend.
  if (turn.kind === 'tool') return chatToolCall(turn.name, turn.args, { text: turn.text });
  return chatReply(turn.text);
}

// A scripted stand-in for the model, for running the support examples offline (npm run demo,
// npm run demo:test; npm run demo:openai, npm run demo:openai:test). It answers from the request
// alone, so it works for any number of concurrent runs:
//  - judge requests (forced `submit_verdict` tool) get a favourable verdict of the asked shape;
//  - a request whose last message holds a tool result gets an answer built from that result;
//  - otherwise the agent looks the order up, or answers the policy question from its instructions.
// `offlineTurn` decides what to do, whatever the wire protocol; `offlineModel` below speaks it as
// the Anthropic Messages API (for the fake Anthropic server), and
// ../openai-support/offline-model.mjs as the OpenAI Chat Completions API.
import { reply, toolResults, toolUse } from '@holodeck/testkit';

/** The tool a judge must call; its input schema is the verdict's. */
export const VERDICT_TOOL = 'submit_verdict';
/** The support agent's function tool, by its agent.yaml name. */
export const LOOKUP_TOOL = 'lookup_order';

/** A verdict of the shape `schema` asks for (the judges of g-eval, rubric and the RAG metrics). */
function verdictFor(schema) {
  const properties = schema.properties ?? {};
  if ('steps' in properties)
    return {
      steps: ['Check the answer is polite.', 'Check it says where the order is.', 'Check it is specific.'],
    };
  if ('claims' in properties)
    return {
      claims: [
        { claim: 'the answer follows the policy', verdict: 'supported', reason: 'stated in the context' },
      ],
    };
  if ('statements' in properties)
    return {
      statements: [{ statement: 'the answer addresses the question', relevant: true, reason: 'on topic' }],
    };
  if ('sentences' in properties)
    return { sentences: [{ sentence: 'the expected answer', attributable: true, reason: 'in the context' }] };
  if ('chunks' in properties) return { chunks: [{ relevant: true, reason: 'the policy chunk' }] };
  if ('pass' in properties) return { reason: 'the rubric is met', pass: true, score: 0.9 };
  const maximum = properties.score?.maximum ?? 5;
  return { reason: 'polite, specific and correct', score: maximum };
}

/** The answer to a lookup_order result: the order's status, or that it could not be found. */
function answerFromLookup({ text, isError }) {
  if (isError) return `I could not find that order: ${text.trim()}. Please check the id.`;
  const order = JSON.parse(text);
  if (order.status === 'shipped') {
    return `Your order ${order.order_id} has shipped with ${order.carrier}; the total was $${order.total}.`;
  }
  return `Your order ${order.order_id} is ${order.status}; it usually ships within 2 business days.`;
}

/** What a customer's question asks for: a lookup of the order it names, or an answer. */
function answerQuestion(question) {
  const orderId = /A-\d{4}/.exec(question)?.[0];
  if (orderId)
    return { kind: 'tool', name: LOOKUP_TOOL, args: { order_id: orderId }, text: 'Let me look that up.' };
  if (/ship/i.test(question))
    return {
      kind: 'reply',
      text: 'It ships within 2 business days of the order; I will keep an eye on it for you.',
    };
  if (/return|refund/i.test(question)) {
    return {
      kind: 'reply',
      text: 'Yes: opened electronics can be returned within 14 days for a full refund, with the receipt.',
    };
  }
  return { kind: 'reply', text: 'I can help with orders: give me your order id (like A-1001).' };
}

/**
 * The model's next move for one request, read by an adapter from its wire format:
 * `verdictSchema` when the request forces the verdict tool, `toolResult` ({text, isError}, the
 * text without any protocol decoration) when the last message answers a tool call, else the
 * `question` (the last user message's text). Returns `{kind: 'verdict', verdict}`,
 * `{kind: 'tool', name, args, text}` (name as in agent.yaml) or `{kind: 'reply', text}`.
 */
export function offlineTurn({ verdictSchema, toolResult, question = '' }) {
  if (verdictSchema) return { kind: 'verdict', verdict: verdictFor(verdictSchema) };
  if (toolResult) return { kind: 'reply', text: answerFromLookup(toolResult) };
  return answerQuestion(question);
}

// ---------------------------------------------------------------- Anthropic Messages adapter

/** The CLI appends `<system-reminder>` blocks to prompts and tool results: not what was sent. */
function withoutReminder(text) {
  return text.split('<system-reminder>')[0];
}

function lastUserText(body) {
  const last = [...(body.messages ?? [])].reverse().find((message) => message.role === 'user');
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return last.content
    .filter((block) => block.type === 'text' && !block.text.startsWith('<system-reminder>'))
    .map((block) => block.text)
    .join('\n');
}

/** The step answering one request of the fake Anthropic API. */
export function offlineModel(request) {
  const body = request.messagesBody ?? {};
  const judgeTool = (body.tools ?? []).find((tool) => tool.name === VERDICT_TOOL);
  const lastMessage = body.messages?.at(-1);
  const answeringTool =
    lastMessage &&
    typeof lastMessage.content !== 'string' &&
    lastMessage.content.some((block) => block.type === 'tool_result');
  const latest = answeringTool ? toolResults(request).at(-1) : undefined;
  const turn = offlineTurn({
    verdictSchema: judgeTool?.input_schema,
    toolResult: latest && { text: withoutReminder(latest.text), isError: latest.isError },
    question: lastUserText(body),
  });
  if (turn.kind === 'verdict') return toolUse(VERDICT_TOOL, turn.verdict);
  // Function tools reach the Claude CLI through HoloDeck's in-process MCP server.
  if (turn.kind === 'tool')
    return toolUse(`mcp__holodeck_tools__${turn.name}`, turn.args, { text: turn.text });
  return reply(turn.text);
}

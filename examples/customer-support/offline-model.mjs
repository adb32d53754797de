// A scripted stand-in for Claude, for running this example offline (npm run demo, npm run demo:test).
// It answers from the request alone, so it works for any number of concurrent runs:
//  - judge requests (forced `submit_verdict` tool) get a favourable verdict of the asked shape;
//  - a request whose last message holds a tool result gets an answer built from that result;
//  - otherwise the agent looks the order up, or answers the policy question from its instructions.
import { reply, toolResults, toolUse } from '@holodeck/testkit';

function lastUserText(body) {
  const last = [...(body.messages ?? [])].reverse().find((message) => message.role === 'user');
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return last.content
    .filter((block) => block.type === 'text' && !block.text.startsWith('<system-reminder>'))
    .map((block) => block.text)
    .join('\n');
}

function verdictFor(schema) {
  const properties = schema.properties ?? {};
  if ('claims' in properties)
    return {
      claims: [{ claim: 'the answer follows the policy', supported: true, reason: 'stated in the context' }],
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

function answerFromOrder(text) {
  const order = JSON.parse(text.split('<system-reminder>')[0]);
  if (order.status === 'shipped') {
    return `Your order ${order.order_id} has shipped with ${order.carrier}; the total was $${order.total}.`;
  }
  return `Your order ${order.order_id} is ${order.status}; it usually ships within 2 business days.`;
}

/** The step answering one request of the fake Anthropic API. */
export function offlineModel(request) {
  const body = request.messagesBody ?? {};
  const judgeTool = (body.tools ?? []).find((tool) => tool.name === 'submit_verdict');
  if (judgeTool) return toolUse('submit_verdict', verdictFor(judgeTool.input_schema));

  const results = toolResults(request);
  const lastMessage = body.messages?.at(-1);
  const answeringTool =
    lastMessage &&
    typeof lastMessage.content !== 'string' &&
    lastMessage.content.some((block) => block.type === 'tool_result');
  if (answeringTool && results.length) {
    const latest = results.at(-1);
    if (latest.isError)
      return reply(
        `I could not find that order: ${latest.text.split('<system-reminder>')[0].trim()}. Please check the id.`,
      );
    return reply(answerFromOrder(latest.text));
  }
  const question = lastUserText(body);
  const orderId = /A-\d{4}/.exec(question)?.[0];
  if (orderId)
    return toolUse(
      'mcp__holodeck_tools__lookup_order',
      { order_id: orderId },
      { text: 'Let me look that up.' },
    );
  if (/ship/i.test(question))
    return reply('It ships within 2 business days of the order; I will keep an eye on it for you.');
  if (/return|refund/i.test(question)) {
    return reply(
      'Yes: opened electronics can be returned within 14 days for a full refund, with the receipt.',
    );
  }
  return reply('I can help with orders: give me your order id (like A-1001).');
}

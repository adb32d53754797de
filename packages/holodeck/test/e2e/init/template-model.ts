import {
  chatMessages,
  chatMessageText,
  chatReply,
  chatRespond,
  chatToolCall,
  chatToolResults,
  type FakeAnthropicServer,
  type FakeOpenAIServer,
  reply,
  respond,
  startFakeAnthropic,
  startFakeOpenAI,
  toolResults,
  toolUse,
} from '@holodeck/testkit';

/** What the scripted model reads of a request, whatever the wire protocol. */
export interface TemplateRequest {
  /** The latest user message of the conversation (not a tool result). */
  question: string;
  /** The whole conversation sent, as text (earlier turns included). */
  conversation: string;
  /** Texts of the tool results sent since the latest user message. */
  results: string[];
}

export type TemplateAnswer = { reply: string } | { tool: string; args: Record<string, unknown> };

/**
 * The model behind every template's example suite: stateless (cases run concurrently), it
 * answers from the question and the tool results it was sent, so each answer is only right
 * when the template's tool really ran and returned what it should.
 */
export function answerTemplateRequest(request: TemplateRequest): TemplateAnswer {
  const { question, results } = request;
  const last = results.at(-1) ?? '';
  if (/who are you/i.test(question)) return { reply: 'Hello! I am your assistant, happy to help.' };
  if (/time is it in tokyo/i.test(question)) {
    if (!results.length) return { tool: 'get_current_time', args: { time_zone: 'Asia/Tokyo' } };
    const time = /"time":\s*"(\d{2}:\d{2})"/.exec(last)?.[1];
    return { reply: time ? `It is ${time} in Tokyo.` : `The clock tool failed: ${last}` };
  }
  if (/my name is ada/i.test(question)) return { reply: 'Nice to meet you, Ada!' };
  if (/what is my name/i.test(question))
    return { reply: request.conversation.includes('Ada') ? 'Your name is Ada.' : 'I do not know.' };
  const order = /A-\d{4}/.exec(question)?.[0];
  if (order && /refund/i.test(question)) {
    if (results.length === 0) return { tool: 'lookup_order', args: { order_id: order } };
    if (results.length === 1) return { tool: 'issue_refund', args: { order_id: order, amount: 20 } };
    return {
      reply: /issued/.test(last) ? `Your refund of $20 on ${order} is issued.` : `No refund: ${last}`,
    };
  }
  if (order) {
    if (!results.length) return { tool: 'lookup_order', args: { order_id: order } };
    if (/"found":\s*true/.test(last) && /DHL/.test(last))
      return { reply: `Your order ${order} has shipped with DHL.` };
    return { reply: `I could not find order ${order}; please check the id.` };
  }
  if (/reset my password|macos 13|gift card/i.test(question)) {
    if (!results.length) return { tool: 'docs_search', args: { query: question } };
    if (/password/i.test(question) && /30\s+minutes/.test(last))
      return {
        reply: 'Open Settings, choose Security, then Reset password; the link is valid for 30 minutes.',
      };
    if (/macos/i.test(question) && /macOS 14/.test(last)) return { reply: 'No: it needs macOS 14 or later.' };
    return { reply: 'I could not find that in the documentation.' };
  }
  return { reply: `Unexpected question: ${question}` };
}

/** The CLI adds <system-reminder> blocks to user messages and tool results: not what the user sent. */
const withoutReminders = (text: string) =>
  text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '').trim();

/** The fake Anthropic API answering as the template model (tools as mcp__holodeck_tools__<name>). */
export function startTemplateAnthropic(): Promise<FakeAnthropicServer> {
  return startFakeAnthropic({
    repeatLast: true,
    steps: [
      respond((request) => {
        const messages = request.messagesBody?.messages ?? [];
        const blocks = (message: (typeof messages)[number]) =>
          typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
        const isResults = (message: (typeof messages)[number]) =>
          blocks(message).some((block) => block.type === 'tool_result');
        const index = messages.findLastIndex((message) => message.role === 'user' && !isResults(message));
        const question = blocks(messages[index] ?? { role: 'user', content: '' })
          .map((block) => ('text' in block && typeof block.text === 'string' ? block.text : ''))
          .join('\n');
        const before = messages
          .slice(0, index)
          .flatMap((message) => blocks(message).filter((block) => block.type === 'tool_result')).length;
        const answer = answerTemplateRequest({
          question: withoutReminders(question),
          conversation: JSON.stringify(messages),
          results: toolResults(request)
            .slice(before)
            .map((result) => withoutReminders(result.text)),
        });
        return 'reply' in answer
          ? reply(answer.reply)
          : toolUse(`mcp__holodeck_tools__${answer.tool}`, answer.args);
      }),
    ],
  });
}

/** The fake OpenAI-compatible API (OpenAI, Azure, Ollama routes and embeddings) answering as the template model. */
export function startTemplateOpenAI(): Promise<FakeOpenAIServer> {
  return startFakeOpenAI({
    fallback: chatRespond((request) => {
      const messages = chatMessages(request);
      const lastQuestion = messages.findLastIndex((message) => message.role === 'user');
      const question = messages[lastQuestion];
      const results = chatToolResults(request).slice(
        messages.slice(0, lastQuestion).filter((message) => message.role === 'tool').length,
      );
      const answer = answerTemplateRequest({
        question: question ? chatMessageText(question) : '',
        conversation: JSON.stringify(messages),
        results: results.map((result) => result.text),
      });
      return 'reply' in answer ? chatReply(answer.reply) : chatToolCall(answer.tool, answer.args);
    }),
  });
}

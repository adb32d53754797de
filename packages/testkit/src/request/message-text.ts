import { type MessageParam, textBlockSchema } from './messages-body.js';

/** The text of a message: its string content, or its top-level text blocks joined by newlines. */
export function messageText(message: MessageParam): string {
  if (typeof message.content === 'string') return message.content;
  const texts: string[] = [];
  for (const block of message.content) {
    const text = textBlockSchema.safeParse(block);
    if (text.success) texts.push(text.data.text);
  }
  return texts.join('\n');
}

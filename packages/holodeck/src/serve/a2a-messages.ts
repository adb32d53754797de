import { randomUUID } from 'node:crypto';
import { type Message, type Part, Role } from '@a2a-js/sdk';
import { z } from 'zod';

// The parts and messages the A2A executor sends, and the answers it reads.

export const textPart = (value: string): Part => ({
  content: { $case: 'text', value },
  metadata: undefined,
  filename: '',
  mediaType: 'text/plain',
});
export const dataPart = (value: Record<string, unknown>): Part => ({
  content: { $case: 'data', value },
  metadata: undefined,
  filename: '',
  mediaType: 'application/json',
});

export function agentMessage(parts: Part[], taskId: string, contextId: string): Message {
  return {
    role: Role.ROLE_AGENT,
    messageId: randomUUID(),
    parts,
    taskId,
    contextId,
    extensions: [],
    metadata: {},
    referenceTaskIds: [],
  };
}

/** An approval answered in a data part (checked: it comes from the caller). */
const ApprovalAnswer = z.object({ approved: z.boolean(), reason: z.string().min(1).optional() });

/** The decision an answer carries: a data part {approved}, or the text approve/deny. */
export function decisionOf(message: Message): { approved: boolean; reason?: string } | undefined {
  for (const part of message.parts) {
    const content = part.content;
    if (content?.$case === 'data') {
      const answer = ApprovalAnswer.safeParse(content.value);
      if (answer.success) return answer.data;
    }
    if (content?.$case === 'text') {
      const text = content.value.trim().toLowerCase();
      if (/^(approve|approved|allow|yes)\b/.test(text)) return { approved: true };
      if (/^(deny|denied|refuse|no)\b/.test(text)) return { approved: false };
    }
  }
  return undefined;
}

/** The text parts of a message, joined. */
export function textOf(message: Message): string {
  return message.parts
    .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
    .join('\n')
    .trim();
}

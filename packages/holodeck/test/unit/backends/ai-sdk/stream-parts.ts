import type { FinishReason, LanguageModelUsage, TextStreamPart, ToolSet } from 'ai';

/** Hand-built AI SDK stream parts for unit tests of the pure translation steps (DESIGN.md). */
export type Part = TextStreamPart<ToolSet>;

export function usage(input: number, output: number, cacheRead?: number): LanguageModelUsage {
  return {
    inputTokens: input,
    inputTokenDetails: { noCacheTokens: undefined, cacheReadTokens: cacheRead, cacheWriteTokens: undefined },
    outputTokens: output,
    outputTokenDetails: { textTokens: undefined, reasoningTokens: undefined },
    totalTokens: input + output,
  };
}

export const startStep: Part = { type: 'start-step', request: {}, warnings: [] };

export function text(delta: string): Part {
  return { type: 'text-delta', id: 't', text: delta };
}

export function finishStep(finishReason: FinishReason, stepUsage = usage(10, 5)): Part {
  return {
    type: 'finish-step',
    response: { id: 'r', timestamp: new Date(0), modelId: 'gpt-4o' },
    usage: stepUsage,
    finishReason,
    rawFinishReason: undefined,
    providerMetadata: undefined,
  };
}

export function toolCall(id: string, name: string, input: unknown): Part {
  return { type: 'tool-call', toolCallId: id, toolName: name, input, dynamic: true };
}

export function toolResult(id: string, name: string, output: unknown): Part {
  return { type: 'tool-result', toolCallId: id, toolName: name, input: {}, output, dynamic: true };
}

export function toolError(id: string, name: string, error: unknown): Part {
  return { type: 'tool-error', toolCallId: id, toolName: name, input: {}, error, dynamic: true };
}

import type { ElicitationRequest } from '@anthropic-ai/claude-agent-sdk';
import type { ElicitationQuestion } from '../contract/index.js';

/** The SDK's elicitation request as the contract's question (the server's name as agent.yaml spells it). */
export function toElicitationQuestion(request: ElicitationRequest): ElicitationQuestion {
  return {
    server: request.serverName,
    message: request.message,
    mode: request.mode ?? 'form',
    ...(request.requestedSchema ? { requestedSchema: request.requestedSchema } : {}),
    ...(request.url ? { url: request.url } : {}),
  };
}

import type { ToolSet } from 'ai';
import { isRecord } from '../../support.js';
import type { ApprovalDecision } from '../contract/index.js';

/** One tool call waiting for a decision. */
export interface ApprovalQuestion {
  callId: string;
  toolName: string;
  arguments: Record<string, unknown>;
}

/** Asks whoever watches the session (the chat's user) about one tool call. */
export type ApproveToolCall = (question: ApprovalQuestion, signal?: AbortSignal) => Promise<ApprovalDecision>;

/**
 * Why a call needs approval on this backend. The AI SDK backend has no built-in tools of its own:
 * every tool is the author's function tool or an MCP server's tool, whose effects HoloDeck cannot
 * know (and `claude.permission_mode` does not apply to it). So in a session that asks (an
 * interactive chat, `approvals: 'ask'`), every tool call asks, and "allow for the session" keeps
 * that comfortable; runs nobody watches (`chat -p`, `holodeck test`, piped chats) run tools as
 * before.
 */
export const AI_SDK_APPROVAL_REASON =
  'every tool call asks in an interactive chat on this backend (provider openai, azure_openai, ollama)';

/**
 * The tool set with an approval before each call: an allowed call runs as it would have, a denied
 * one answers the model with an error result carrying the user's reason (the model sees it, as on
 * Claude). Tools allowed "for the session" are remembered in `allowedForSession`.
 */
export function approveToolCalls(
  tools: ToolSet,
  approve: ApproveToolCall,
  allowedForSession: Set<string>,
): ToolSet {
  const gated: ToolSet = {};
  for (const [name, definition] of Object.entries(tools)) {
    const execute = definition.execute;
    if (!execute) {
      gated[name] = definition;
      continue;
    }
    gated[name] = {
      ...definition,
      execute: async (input: unknown, options: Parameters<typeof execute>[1]) => {
        if (!allowedForSession.has(name)) {
          const decision = await approve(
            { callId: options.toolCallId, toolName: name, arguments: isRecord(input) ? input : {} },
            options.abortSignal,
          );
          if (decision.behavior === 'deny')
            return { text: `The user denied this ${name} call: ${decision.reason}`, isError: true };
          if (decision.scope === 'session') allowedForSession.add(name);
        }
        return execute(input, options);
      },
    } as typeof definition;
  }
  return gated;
}

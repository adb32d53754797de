import type { HookJSONOutput } from '@anthropic-ai/claude-agent-sdk';

/** Refuses the tool call; the model sees the reason as an error tool result. */
export function refuse(reason: string): HookJSONOutput {
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: `Novarch: ${reason}`,
    },
  };
}

/**
 * No opinion: the tool may run as far as Novarch is concerned, and the user's own permission
 * rules still apply. Novarch narrows what an agent may do, never widens it.
 */
export const NO_OPINION: HookJSONOutput = {};

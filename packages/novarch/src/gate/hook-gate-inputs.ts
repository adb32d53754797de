import type { HookInput, SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { NovarchError } from '../errors.js';
import { isRecord } from '../support.js';

/** Headroom of the hook timeout over the hold wait: the judge's budget and the let-through margin. */
export const HOOK_TIMEOUT_HEADROOM_S = 60;

/** The tool_result blocks of a user message in the SDK stream: what the model was sent back. */
export function toolResultsOf(message: SDKMessage): { id: string; content: unknown; isError: boolean }[] {
  if (message.type !== 'user') return [];
  const content: unknown = message.message.content;
  if (!Array.isArray(content)) return [];
  return content.flatMap((block: unknown) =>
    isRecord(block) && block.type === 'tool_result' && typeof block.tool_use_id === 'string'
      ? [{ id: block.tool_use_id, content: block.content, isError: block.is_error === true }]
      : [],
  );
}

/** The agent a hook fired in: a subagent's id, or '' for the main thread. */
export function agentOf(input: HookInput): string {
  return typeof input.agent_id === 'string' ? input.agent_id : '';
}

/**
 * The PreToolUse matcher's timeout (s) for a session whose holds wait `wait` s: `timeoutS` when it
 * strictly outlives the wait (else refused, saying why), by default the wait plus the headroom.
 */
export function hookTimeoutSeconds(timeoutS: number | undefined, wait: number): number {
  if (
    timeoutS !== undefined &&
    (typeof timeoutS !== 'number' || !Number.isFinite(timeoutS) || timeoutS <= wait)
  ) {
    const given = typeof timeoutS === 'string' ? `the string ${JSON.stringify(timeoutS)}` : String(timeoutS);
    throw new NovarchError(
      `hooksConfig timeoutS ${given} does not outlive this session's hold wait of ${wait} s; use more than ${wait} (the default is ${wait + HOOK_TIMEOUT_HEADROOM_S})`,
    );
  }
  return timeoutS ?? wait + HOOK_TIMEOUT_HEADROOM_S;
}

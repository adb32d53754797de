import type { ToolSet } from 'ai';
import { isRecord } from '../../support.js';
import { type ApprovalDecision, NO_APPROVER_REASON } from '../contract/index.js';

/** One tool call waiting for a decision. */
export interface ApprovalQuestion {
  callId: string;
  toolName: string;
  arguments: Record<string, unknown>;
  /** Why this call asks: the setting that decides it (`tool-approval-policy.ts`). */
  reason: string;
}

/** Asks whoever watches the session (the chat's user) about one tool call. */
export type ApproveToolCall = (question: ApprovalQuestion, signal?: AbortSignal) => Promise<ApprovalDecision>;

/** How a session treats calls that need approval: ask its user, or refuse them (nobody can answer). */
export type ApprovalGate =
  | { kind: 'ask'; approve: ApproveToolCall; allowedForSession: Set<string> }
  | { kind: 'refuse' };

/**
 * The tool set with approvals before the calls that need one (`needs`, from the tool's
 * `approval:` setting or its kind): an allowed call runs as it would have, a denied or refused one
 * answers the model with an error result carrying the reason (the model sees it, as on Claude).
 * Tools allowed "for the session" are remembered in `allowedForSession`.
 */
export function approveToolCalls(
  tools: ToolSet,
  gate: ApprovalGate,
  needs: (name: string) => { asks: boolean; reason: string; setting: string },
): ToolSet {
  const gated: ToolSet = {};
  for (const [name, definition] of Object.entries(tools)) {
    const execute = definition.execute;
    const approval = needs(name);
    if (!execute || !approval.asks) {
      gated[name] = definition;
      continue;
    }
    gated[name] = {
      ...definition,
      execute: async (input: unknown, options: Parameters<typeof execute>[1]) => {
        if (gate.kind === 'refuse')
          return {
            text: `${name} needs approval (${approval.reason}) and ${NO_APPROVER_REASON}; set ${approval.setting}: never in agent.yaml to let it run unasked`,
            isError: true,
          };
        if (!gate.allowedForSession.has(name)) {
          const decision = await gate.approve(
            {
              callId: options.toolCallId,
              toolName: name,
              arguments: isRecord(input) ? input : {},
              reason: approval.reason,
            },
            options.abortSignal,
          );
          if (decision.behavior === 'deny')
            return { text: `The user denied this ${name} call: ${decision.reason}`, isError: true };
          if (decision.scope === 'session') gate.allowedForSession.add(name);
        }
        return execute(input, options);
      },
    } as typeof definition;
  }
  return gated;
}

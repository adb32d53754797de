import type {
  HookCallbackMatcher,
  HookEvent,
  HookInput,
  HookJSONOutput,
} from '@anthropic-ai/claude-agent-sdk';
import { type BashPolicy, refuseBashCommand } from './bash-command-policy.js';
import { allowedToolsEntryMatches, RUNTIME_TOOLS } from './tool-names.js';

export interface ToolGuardPolicy {
  /** `claude.allowed_tools`; undefined = every configured tool may be called. */
  allowedTools?: readonly string[];
  /** Present when Bash is enabled. */
  bash?: BashPolicy;
  /** `claude.subagents.max_parallel` when subagents are enabled. */
  maxParallelSubagents?: number;
}

function deny(reason: string): HookJSONOutput {
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: reason,
    },
  };
}

function commandOf(toolInput: unknown): string {
  if (typeof toolInput === 'object' && toolInput !== null && 'command' in toolInput) {
    const command = (toolInput as { command: unknown }).command;
    if (typeof command === 'string') return command;
  }
  return '';
}

/**
 * PreToolUse hooks that enforce agent.yaml's tool limits inside the CLI: `allowed_tools`,
 * `bash.excluded_commands` / `allow_unsafe`, and `subagents.max_parallel`. Only a
 * `permissionDecision: 'deny'` blocks a tool, and a hook that fails lets the tool run unless
 * its matcher says `onFailure: 'block'`, so every matcher here fails closed.
 */
export function buildToolGuard(policy: ToolGuardPolicy): Partial<Record<HookEvent, HookCallbackMatcher[]>> {
  let runningSubagents = 0;
  const subagentCalls = new Set<string>();

  const preToolUse = async (input: HookInput): Promise<HookJSONOutput> => {
    if (input.hook_event_name !== 'PreToolUse') return {};
    const name = input.tool_name;
    if (RUNTIME_TOOLS.has(name)) return {};
    if (policy.allowedTools && !policy.allowedTools.some((entry) => allowedToolsEntryMatches(entry, name))) {
      return deny(`Tool "${name}" is not listed in claude.allowed_tools, so it cannot be called.`);
    }
    if (name === 'Bash') {
      if (!policy.bash) return deny('Bash is not enabled for this agent (claude.bash.enabled).');
      const refusal = refuseBashCommand(commandOf(input.tool_input), policy.bash);
      if (refusal) return deny(`Bash command refused: ${refusal}.`);
    }
    if (name === 'Agent' && policy.maxParallelSubagents !== undefined) {
      if (runningSubagents >= policy.maxParallelSubagents) {
        return deny(
          `At most ${policy.maxParallelSubagents} subagents may run at once (claude.subagents.max_parallel); wait for one to finish.`,
        );
      }
      runningSubagents++;
      subagentCalls.add(input.tool_use_id);
    }
    return {};
  };

  const toolFinished = async (input: HookInput): Promise<HookJSONOutput> => {
    if (
      (input.hook_event_name === 'PostToolUse' || input.hook_event_name === 'PostToolUseFailure') &&
      subagentCalls.delete(input.tool_use_id)
    ) {
      runningSubagents--;
    }
    return {};
  };

  return {
    PreToolUse: [{ hooks: [preToolUse], onFailure: 'block' }],
    PostToolUse: [{ matcher: 'Agent', hooks: [toolFinished] }],
    PostToolUseFailure: [{ matcher: 'Agent', hooks: [toolFinished] }],
  };
}

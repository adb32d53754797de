import type { HookInput } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import { buildToolGuard } from '../../../src/backends/claude/build-tool-guard.js';

// Hand-built hook inputs: the guard is pure decision code (its e2e behaviour is in test/e2e).
const pre = (tool_name: string, tool_input: unknown, tool_use_id = 'id') =>
  ({ hook_event_name: 'PreToolUse', tool_name, tool_input, tool_use_id }) as unknown as HookInput;
const post = (tool_use_id: string) =>
  ({ hook_event_name: 'PostToolUse', tool_name: 'Agent', tool_use_id }) as unknown as HookInput;
const signal = new AbortController().signal;

async function decide(guard: ReturnType<typeof buildToolGuard>, input: HookInput) {
  const hook = guard.PreToolUse?.[0]?.hooks[0];
  const output = await hook?.(input, undefined, { signal });
  return output && 'hookSpecificOutput' in output ? output.hookSpecificOutput : undefined;
}

describe('buildToolGuard', () => {
  it('registers its PreToolUse matcher to fail closed', () => {
    expect(buildToolGuard({}).PreToolUse?.[0]?.onFailure).toBe('block');
  });

  it('denies tools outside allowed_tools but lets the runtime structured-output tool through', async () => {
    const guard = buildToolGuard({ allowedTools: ['Read'] });
    expect(await decide(guard, pre('Read', {}))).toBeUndefined();
    expect(await decide(guard, pre('StructuredOutput', {}))).toBeUndefined();
    expect(await decide(guard, pre('mcp__x__y', {}))).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason:
        'Tool "mcp__x__y" is not listed in claude.allowed_tools, so it cannot be called.',
    });
  });

  it('denies Bash when it is not enabled, and excluded commands when it is', async () => {
    expect(await decide(buildToolGuard({}), pre('Bash', { command: 'ls' }))).toMatchObject({
      permissionDecision: 'deny',
    });
    const guard = buildToolGuard({ bash: { excludedCommands: ['curl'], allowUnsafe: false } });
    expect(await decide(guard, pre('Bash', { command: 'ls' }))).toBeUndefined();
    expect(await decide(guard, pre('Bash', { command: 'curl x' }))).toMatchObject({
      permissionDecisionReason: 'Bash command refused: "curl" is in claude.bash.excluded_commands.',
    });
  });

  it('caps concurrently running subagents at max_parallel', async () => {
    const guard = buildToolGuard({ maxParallelSubagents: 2 });
    expect(await decide(guard, pre('Agent', {}, 'a'))).toBeUndefined();
    expect(await decide(guard, pre('Agent', {}, 'b'))).toBeUndefined();
    expect(await decide(guard, pre('Agent', {}, 'c'))).toMatchObject({ permissionDecision: 'deny' });
    await guard.PostToolUse?.[0]?.hooks[0]?.(post('a'), 'a', { signal });
    expect(await decide(guard, pre('Agent', {}, 'd'))).toBeUndefined();
  });
});

import { z } from 'zod';

/** How much the Claude agent may do without asking. */
export const PermissionModeSchema = z.enum(['manual', 'acceptEdits', 'acceptAll']);
/** A permission mode of the Claude backend. */
export type PermissionMode = z.infer<typeof PermissionModeSchema>;

/** Extended thinking: off unless enabled, because the CLI turns it on by default. */
export const ExtendedThinkingConfigSchema = z.strictObject({
  enabled: z.boolean().default(false).describe('Turns extended thinking on (off by default).'),
  budget_tokens: z
    .int()
    .min(1000)
    .max(100_000)
    .default(10_000)
    .describe('Most tokens the model may spend thinking per turn.'),
});
/** Extended thinking settings. */
export type ExtendedThinkingConfig = z.infer<typeof ExtendedThinkingConfigSchema>;

/** The built-in Bash tool. */
export const BashConfigSchema = z.strictObject({
  enabled: z.boolean().default(false).describe('Enables the Bash tool (off by default).'),
  excluded_commands: z
    .array(z.string().min(1))
    .default([])
    .describe(
      'Commands refused, compared word by word after parsing the command line like a shell (`git push` refuses `git push -f`, not `git pull`). A guard, not a sandbox.',
    ),
  allow_unsafe: z
    .boolean()
    .default(false)
    .describe(
      'Allows sudo/su/dd/mkfs/eval, recursive removal of / or ~, shells reading from a pipe, and commands that are not written out (a variable as the command).',
    ),
});
/** Bash tool settings. */
export type BashConfig = z.infer<typeof BashConfigSchema>;

/** The built-in file tools: read enables Read/Glob/Grep, write enables Write, edit enables Edit. */
export const FileSystemConfigSchema = z.strictObject({
  read: z.boolean().default(false).describe('Enables Read, Glob and Grep.'),
  write: z.boolean().default(false).describe('Enables Write (follows permission_mode).'),
  edit: z.boolean().default(false).describe('Enables Edit (follows permission_mode).'),
});
/** File tool settings. */
export type FileSystemConfig = z.infer<typeof FileSystemConfigSchema>;

/** Sub-agents (the built-in Agent tool). */
export const SubagentConfigSchema = z.strictObject({
  enabled: z.boolean().default(false).describe('Enables the Agent tool (sub-agents).'),
  max_parallel: z.int().min(1).max(16).default(4).describe('Most sub-agents running at once.'),
});
/** Sub-agent settings. */
export type SubagentConfig = z.infer<typeof SubagentConfigSchema>;

/** Which Claude Code settings files the CLI may read; none by default so runs are reproducible. */
export const SettingSourceSchema = z.enum(['user', 'project', 'local']);
/** A Claude Code settings source. */
export type SettingSource = z.infer<typeof SettingSourceSchema>;

/** Claude Agent SDK settings (provider anthropic only). Every capability is off by default. */
export const ClaudeConfigSchema = z
  .strictObject({
    working_directory: z
      .string()
      .min(1)
      .optional()
      .describe('Folder the agent works in (relative to agent.yaml); must exist.'),
    permission_mode: PermissionModeSchema.default('manual').describe(
      'manual asks for every action; acceptEdits auto-approves file edits; acceptAll approves everything.',
    ),
    acknowledge_accept_all: z
      .boolean()
      .optional()
      .describe('Must be true to use permission_mode: acceptAll.'),
    max_turns: z
      .int()
      .min(1)
      .optional()
      .describe('Older spelling of the top-level max_turns, still accepted for provider anthropic.'),
    extended_thinking: ExtendedThinkingConfigSchema.optional().describe(
      'Extended thinking; explicitly off unless enabled (the CLI would turn it on).',
    ),
    web_search: z.boolean().default(false).describe('Enables the WebSearch and WebFetch tools.'),
    bash: BashConfigSchema.optional().describe('The built-in Bash tool and its limits.'),
    file_system: FileSystemConfigSchema.optional().describe('The built-in file tools.'),
    subagents: SubagentConfigSchema.optional().describe('Sub-agents (the built-in Agent tool).'),
    allowed_tools: z
      .array(z.string().min(1))
      .optional()
      .describe('Tools the agent may use without approval; unset means all configured tools.'),
    setting_sources: z
      .array(SettingSourceSchema)
      .default([])
      .describe('Claude Code settings (and CLAUDE.md for project) to load; none by default.'),
  })
  .describe('Claude Agent SDK settings; used only when model.provider is anthropic.');
/** The `claude:` block. */
export type ClaudeConfig = z.infer<typeof ClaudeConfigSchema>;

import { z } from 'zod';

/** How much the Claude agent may do without asking. */
export const PermissionModeSchema = z.enum(['manual', 'acceptEdits', 'acceptAll']);
/** A permission mode of the Claude backend. */
export type PermissionMode = z.infer<typeof PermissionModeSchema>;

/** Extended thinking: off unless enabled, because the CLI turns it on by default. */
export const ExtendedThinkingConfigSchema = z.strictObject({
  enabled: z.boolean().default(false),
  budget_tokens: z.int().min(1000).max(100_000).default(10_000),
});
/** Extended thinking settings. */
export type ExtendedThinkingConfig = z.infer<typeof ExtendedThinkingConfigSchema>;

/** The built-in Bash tool. */
export const BashConfigSchema = z.strictObject({
  enabled: z.boolean().default(false),
  excluded_commands: z.array(z.string().min(1)).default([]),
  allow_unsafe: z.boolean().default(false),
});
/** Bash tool settings. */
export type BashConfig = z.infer<typeof BashConfigSchema>;

/** The built-in file tools: read enables Read/Glob/Grep, write enables Write, edit enables Edit. */
export const FileSystemConfigSchema = z.strictObject({
  read: z.boolean().default(false),
  write: z.boolean().default(false),
  edit: z.boolean().default(false),
});
/** File tool settings. */
export type FileSystemConfig = z.infer<typeof FileSystemConfigSchema>;

/** Sub-agents (the built-in Agent tool). */
export const SubagentConfigSchema = z.strictObject({
  enabled: z.boolean().default(false),
  max_parallel: z.int().min(1).max(16).default(4),
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
    extended_thinking: ExtendedThinkingConfigSchema.optional(),
    web_search: z.boolean().default(false).describe('Enables the WebSearch and WebFetch tools.'),
    bash: BashConfigSchema.optional(),
    file_system: FileSystemConfigSchema.optional(),
    subagents: SubagentConfigSchema.optional(),
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

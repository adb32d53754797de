import type { AgentConfig } from '../config/index.js';
import { shownToolName } from './shown-tool-name.js';

// Claude Code's built-ins and the agent.yaml setting that turns each on (all are off by default).
const CLAUDE_BUILTINS: readonly [string, string][] = [
  ['Read', 'claude.file_system.read'],
  ['Glob', 'claude.file_system.read'],
  ['Grep', 'claude.file_system.read'],
  ['Write', 'claude.file_system.write'],
  ['Edit', 'claude.file_system.edit'],
  ['Bash', 'claude.bash.enabled'],
  ['WebSearch', 'claude.web_search'],
  ['WebFetch', 'claude.web_search'],
  ['Task', 'claude.subagents.enabled'],
];

function approvalNote(config: AgentConfig, name: string): string {
  if (config.model.provider !== 'anthropic') return 'asks before each call in this chat';
  const mode = config.claude?.permission_mode ?? 'manual';
  if (mode === 'acceptAll') return 'runs without asking (permission_mode: acceptAll)';
  if (name === 'Bash' || (mode === 'manual' && (name === 'Write' || name === 'Edit')))
    return `asks first (permission_mode: ${mode})`;
  return 'runs without asking';
}

/** The text of /tools: what the model is offered, and for each built-in it is not, the setting that offers it. */
export function describeTools(config: AgentConfig, offered: readonly string[]): string {
  const lines = ['Offered to the agent:'];
  if (!offered.length) lines.push('  (no tools)');
  // The names the tool lines of a turn use (a function tool as agent.yaml names it).
  for (const name of offered) lines.push(`  ${shownToolName(name)} — ${approvalNote(config, name)}`);
  if (config.model.provider === 'anthropic') {
    const missing = CLAUDE_BUILTINS.filter(([name]) => !offered.includes(name));
    if (missing.length) {
      lines.push('Not offered (built-ins are off unless agent.yaml turns them on):');
      for (const [name, setting] of missing) {
        const listed = config.claude?.allowed_tools;
        lines.push(`  ${name} — ${listed ? `${setting}, and listed in claude.allowed_tools` : setting}`);
      }
    }
  }
  return lines.join('\n');
}

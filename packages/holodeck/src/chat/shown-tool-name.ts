import { withoutFunctionToolsPrefix } from '../tool-name.js';
import { neutraliseTerminalText } from './neutralise-terminal-text.js';

/**
 * A tool's name as the user wrote it in agent.yaml: a function tool without the
 * `mcp__holodeck_tools__` prefix the Claude CLI (and Novarch's rules) call it by; neutralised.
 */
export function shownToolName(name: string): string {
  return neutraliseTerminalText(withoutFunctionToolsPrefix(name));
}

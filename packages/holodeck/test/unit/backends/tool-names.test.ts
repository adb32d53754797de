import { describe, expect, it } from 'vitest';
import { allowedToolsEntryMatches, parseMcpToolName } from '../../../src/backends/claude/tool-names.js';

describe('allowedToolsEntryMatches', () => {
  it('matches built-ins exactly', () => {
    expect(allowedToolsEntryMatches('Read', 'Read')).toBe(true);
    expect(allowedToolsEntryMatches('Read', 'ReadMcpResource')).toBe(false);
  });

  it('matches MCP tools by full name, short name or whole server, never by substring', () => {
    const name = 'mcp__holodeck_tools__lookup_order';
    expect(allowedToolsEntryMatches(name, name)).toBe(true);
    expect(allowedToolsEntryMatches('lookup_order', name)).toBe(true);
    expect(allowedToolsEntryMatches('mcp__holodeck_tools', name)).toBe(true);
    expect(allowedToolsEntryMatches('mcp__holodeck_tools__*', name)).toBe(true);
    expect(allowedToolsEntryMatches('lookup', name)).toBe(false);
    expect(allowedToolsEntryMatches('mcp__holodeck', name)).toBe(false);
  });

  it('parses mcp names', () => {
    expect(parseMcpToolName('mcp__everything__echo')).toEqual({ server: 'everything', tool: 'echo' });
    expect(parseMcpToolName('Bash')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import {
  functionToolName,
  isToolOfServer,
  mcpServerOf,
  parseMcpToolName,
  shortToolName,
  withoutFunctionToolsPrefix,
} from '../../src/tool-name.js';

describe('tool names (mcp__<server>__<tool>)', () => {
  it('parses a server tool and leaves built-ins alone', () => {
    expect(parseMcpToolName('mcp__everything__echo')).toEqual({ server: 'everything', tool: 'echo' });
    expect(parseMcpToolName('mcp__a__b__c')).toEqual({ server: 'a', tool: 'b__c' });
    expect(parseMcpToolName('Read')).toBeUndefined();
    expect(parseMcpToolName('mcp__everything__')).toBeUndefined();
    expect(shortToolName('mcp__everything__echo')).toBe('echo');
    expect(shortToolName('Bash')).toBe('Bash');
  });

  it('strips only the function-tools prefix', () => {
    expect(functionToolName('lookup_order')).toBe('mcp__holodeck_tools__lookup_order');
    expect(withoutFunctionToolsPrefix('mcp__holodeck_tools__lookup_order')).toBe('lookup_order');
    expect(withoutFunctionToolsPrefix('mcp__everything__echo')).toBe('mcp__everything__echo');
  });

  it('matches a server by its whole name, with a tool after it', () => {
    expect(isToolOfServer('mcp__docs__search', 'docs')).toBe(true);
    expect(isToolOfServer('mcp__docs__', 'docs')).toBe(false);
    expect(isToolOfServer('mcp__docsx__search', 'docs')).toBe(false);
    expect(mcpServerOf('mcp__docs')).toEqual({ server: 'docs', rest: '' });
    expect(mcpServerOf('mcp__docs__*')).toEqual({ server: 'docs', rest: '__*' });
    expect(mcpServerOf('Read')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { describeOfferedTools } from '../../../../src/backends/ai-sdk/describe-offered-tools.js';
import type { AgentConfig } from '../../../../src/config/index.js';

function configWithServers(...servers: string[]): AgentConfig {
  return {
    tools: servers.map((name) => ({ type: 'mcp', name, transport: 'stdio', command: 'x' })),
  } as unknown as AgentConfig;
}

describe('describeOfferedTools', () => {
  it('reports function tools by name and MCP tools with their server and own name', () => {
    expect(
      describeOfferedTools(['lookup_order', 'mcp__everything__echo'], configWithServers('everything')),
    ).toEqual([
      { name: 'lookup_order' },
      { name: 'mcp__everything__echo', mcp: { server: 'everything', tool: 'echo' } },
    ]);
  });

  it('takes the longest server name, so a server named a does not claim a__b tools', () => {
    expect(describeOfferedTools(['mcp__a__b__echo', 'mcp__a__ping'], configWithServers('a', 'a__b'))).toEqual(
      [
        { name: 'mcp__a__b__echo', mcp: { server: 'a__b', tool: 'echo' } },
        { name: 'mcp__a__ping', mcp: { server: 'a', tool: 'ping' } },
      ],
    );
  });
});

import { describe, expect, it } from 'vitest';
import { toolKindsOf } from '../../../src/backends/tool-kinds.js';
import type { AgentConfig } from '../../../src/config/index.js';

const config = {
  tools: [
    { type: 'function', name: 'lookup_order' },
    { type: 'vectorstore', name: 'handbook' },
    { type: 'mcp', name: 'docs' },
  ],
} as unknown as AgentConfig;

describe('toolKindsOf', () => {
  const kindOf = toolKindsOf(config);

  it('names each tool kind from agent.yaml, however the backend spells the name', () => {
    expect(kindOf('lookup_order')).toBe('function');
    expect(kindOf('mcp__holodeck_tools__lookup_order')).toBe('function');
    expect(kindOf('handbook_search')).toBe('retrieval');
    expect(kindOf('mcp__holodeck_tools__handbook_search')).toBe('retrieval');
    expect(kindOf('mcp__docs__search')).toBe('mcp');
    expect(kindOf('Read')).toBe('builtin');
  });

  it('does not take a name that only looks like one: an unknown *_search, another server', () => {
    expect(kindOf('other_search')).toBe('builtin');
    expect(kindOf('mcp__docsx__search')).toBe('builtin');
  });
});

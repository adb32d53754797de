import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeMcpFailures, mcpServerPlaces } from '../../../src/backends/claude/describe-mcp-failure.js';
import type { LoadedAgent } from '../../../src/config/index.js';

// The Claude CLI says only "failed" of an MCP server that did not start: HoloDeck names the entry,
// its place in agent.yaml and, where it can tell, the cause, as the AI SDK backend does.

const folder = mkdtempSync(path.join(tmpdir(), 'holodeck-mcp-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const script = path.join(folder, 'server.sh');
writeFileSync(script, '#!/bin/sh\n');
chmodSync(script, 0o644);

const agent = {
  file: '/srv/agent/agent.yaml',
  directory: folder,
  locate: (fieldPath: (string | number)[]) => ({ line: 8 + Number(fieldPath[1]) * 4, column: 5 }),
  config: {
    tools: [
      { type: 'mcp', name: 'missing', transport: 'stdio', command: 'no-such-mcp-server-x' },
      { type: 'mcp', name: 'plain', transport: 'stdio', command: './server.sh' },
      { type: 'mcp', name: 'remote', transport: 'http', url: 'http://localhost:1/mcp' },
    ],
  },
} as unknown as LoadedAgent;

describe('describeMcpFailures', () => {
  const places = mcpServerPlaces(agent, { PATH: '/usr/bin:/bin' });

  it('names the entry, its line in agent.yaml and a command not on PATH', () => {
    expect(
      describeMcpFailures([{ name: 'missing', status: 'failed' }], places, 'its tools are missing'),
    ).toBe(
      'MCP server "missing" (tools[0] at /srv/agent/agent.yaml:8:5, command no-such-mcp-server-x) did not start: spawn no-such-mcp-server-x ENOENT (not found on PATH), so its tools are missing\n  check its command/url and env in agent.yaml',
    );
  });

  it('says when the command is not executable, and falls back to the CLI status otherwise', () => {
    const text = describeMcpFailures(
      [
        { name: 'plain', status: 'failed' },
        { name: 'remote', status: 'needs-auth' },
      ],
      places,
      'its tools cannot be listed',
    );
    expect(text).toContain(
      `MCP server "plain" (tools[1] at /srv/agent/agent.yaml:12:5, command ./server.sh) did not start: ${script} is not executable`,
    );
    expect(text).toContain(
      'MCP server "remote" (tools[2] at /srv/agent/agent.yaml:16:5, url http://localhost:1/mcp) did not start: the Claude CLI reports it needs-auth, so its tools cannot be listed',
    );
  });
});

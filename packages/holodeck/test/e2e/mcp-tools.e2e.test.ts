import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { reply, toolNames, toolUse } from '@holodeck/testkit';
import { describe, expect, it } from 'vitest';
import { requestAt } from './support/e2e-agent.js';
import { echoResults } from './support/echo-results.js';
import { invokeAgent } from './support/invoke-agent.js';
import { useFakeModel } from './support/use-fake-model.js';

const fake = useFakeModel();

/** A one-tool MCP server (the real MCP SDK over stdio) that answers with its working directory. */
const WHERE_SERVER = `
import { McpServer } from ${JSON.stringify(import.meta.resolve('@modelcontextprotocol/sdk/server/mcp.js'))};
import { StdioServerTransport } from ${JSON.stringify(import.meta.resolve('@modelcontextprotocol/sdk/server/stdio.js'))};
const server = new McpServer({ name: 'where', version: '1.0.0' });
server.registerTool('cwd', { description: 'working directory' }, async () => ({ content: [{ type: 'text', text: process.cwd() }] }));
await server.connect(new StdioServerTransport());
`;

const everything = {
  type: 'mcp',
  name: 'everything',
  description: 'MCP reference server',
  transport: 'stdio',
  command: process.execPath,
  args: [
    createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js'),
    'stdio',
  ],
};

describe('MCP tools', () => {
  it('runs a real MCP server from npm over stdio', async () => {
    fake().script(toolUse('mcp__everything__echo', { message: 'ping from e2e' }, { id: 'e1' }), echoResults);
    const result = await invokeAgent(fake().url, 'echo', {
      config: { tools: [everything], claude: { allowed_tools: ['mcp__everything__echo'] } },
    });

    expect(toolNames(requestAt(fake(), 0))).toContain('mcp__everything__echo');
    expect(result.tool_results).toEqual([{ call_id: 'e1', result: 'Echo: ping from e2e', is_error: false }]);
  });

  it('reaches an MCP server over streamable HTTP', async () => {
    const port = await freePort();
    const server = spawn(process.execPath, [everything.args[0] ?? '', 'streamableHttp'], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        server.stderr.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('listening')) resolve();
        });
        server.on('exit', () => reject(new Error('MCP HTTP server exited')));
      });
      const http = {
        type: 'mcp',
        name: 'remote',
        description: 'MCP reference server over HTTP',
        transport: 'http',
        url: `http://127.0.0.1:${port}/mcp`,
        headers: { 'x-team': 'e2e' },
      };
      fake().script(toolUse('mcp__remote__echo', { message: 'over http' }, { id: 'h1' }), echoResults);
      const result = await invokeAgent(fake().url, 'echo', { config: { tools: [http] } });
      expect(result.tool_results).toEqual([{ call_id: 'h1', result: 'Echo: over http', is_error: false }]);
    } finally {
      server.kill();
    }
  });

  it('starts a stdio server in its configured cwd', async () => {
    const cwdServer = {
      type: 'mcp',
      name: 'where',
      description: 'Reports its working directory',
      command: process.execPath,
      args: ['../where-server.mjs'],
      cwd: 'server-home',
    };
    fake().script(toolUse('mcp__where__cwd', {}, { id: 'w1' }), echoResults);
    const result = await invokeAgent(fake().url, 'where?', {
      config: { tools: [cwdServer] },
      files: { 'where-server.mjs': WHERE_SERVER, 'server-home/.keep': '' },
    });
    expect(result.tool_results[0]?.result).toMatch(/\/server-home$/);
  });

  it('fails the run when an MCP server does not start, instead of running without its tools', async () => {
    const broken = { ...everything, name: 'broken', command: '/nonexistent/mcp-server' };
    // The CLI may already have sent its first request when the failed status arrives; answer it.
    fake().script(reply('this answer is discarded'));
    const result = await invokeAgent(fake().url, 'hi', { config: { tools: [broken] } });
    // Named as the AI SDK backend names it: the entry, where it is in agent.yaml, and the cause.
    expect(result.is_error).toBe(true);
    expect(result.error_reason).toMatch(
      /^MCP server "broken" \(tools\[0\] at \S+agent\.yaml:\d+:\d+, command \/nonexistent\/mcp-server\) did not start: spawn \/nonexistent\/mcp-server ENOENT \(no such file\), so its tools are missing\n {2}check its command\/url and env in agent\.yaml$/,
    );
    expect(result.response).toBe('');
    fake().reset();
  });

  it('refuses a remote tool that claude.allowed_tools does not list', async () => {
    fake().script(toolUse('mcp__everything__get-sum', { a: 1, b: 2 }, { id: 's1' }), echoResults);
    const result = await invokeAgent(fake().url, 'add', {
      config: { tools: [everything], claude: { allowed_tools: ['mcp__everything__echo'] } },
    });
    expect(result.tool_results[0]).toMatchObject({ call_id: 's1', is_error: true });
    expect(result.tool_results[0]?.result).toContain(
      'Tool "mcp__everything__get-sum" is not listed in claude.allowed_tools, so it cannot be called.',
    );
  });

  it('gives the server its configured env and none of the host secrets', async () => {
    fake().script(toolUse('mcp__everything__get-env', {}, { id: 'env1' }), echoResults);
    const withEnv = { ...everything, env: { GREETING: 'hello-from-agent-yaml' } };
    const result = await invokeAgent(fake().url, 'env?', {
      config: { tools: [withEnv] },
      env: { HOST_SECRET_TOKEN: 'do-not-leak-42' },
    });
    const output = result.tool_results[0]?.result ?? '';
    expect(output).toContain('hello-from-agent-yaml');
    expect(output).not.toContain('do-not-leak-42');
    expect(output).not.toContain('sk-test-holodeck-e2e');
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

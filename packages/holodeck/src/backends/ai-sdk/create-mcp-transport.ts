import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpToolConfig } from '../../config/index.js';

/**
 * Host variables a stdio server gets from the agent's environment so it can run at all (find
 * programs, a home, locale, TLS and proxy settings). Nothing else of the host reaches it, so
 * model API keys stay out of the user's MCP servers; the tool's own `env` is added on top.
 */
const HOST_VARIABLES = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'TMPDIR',
  'LANG',
  'LC_ALL',
  'TZ',
  'SYSTEMROOT',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'HTTPS_PROXY',
  'HTTP_PROXY',
  'NO_PROXY',
  'https_proxy',
  'http_proxy',
  'no_proxy',
];

/** Keeps the last part of a stdio server's stderr, for the message when it fails to start. */
const STDERR_TAIL_CHARS = 2_000;

/** A transport to one MCP server of agent.yaml, and what its process said on stderr (stdio only). */
export interface McpTransport {
  transport: Transport;
  stderrTail(): string;
}

/** The environment of a stdio server: host basics from `env` (agent.env), then the tool's `env`. */
export function buildStdioEnv(
  env: Readonly<Record<string, string | undefined>>,
  toolEnv: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const name of HOST_VARIABLES) {
    const value = env[name];
    if (value !== undefined) result[name] = value;
  }
  return { ...result, ...toolEnv };
}

/** Builds the transport an MCP server's `transport` names (stdio, streamable HTTP or SSE). */
export function createMcpTransport(
  config: McpToolConfig,
  env: Readonly<Record<string, string | undefined>>,
): McpTransport {
  if (config.transport === 'stdio') {
    const transport = new StdioClientTransport({
      command: config.command ?? '',
      args: config.args ?? [],
      env: buildStdioEnv(env, config.env),
      ...(config.cwd ? { cwd: config.cwd } : {}),
      // Piped, not inherited: a server's logs must not spill onto the user's terminal.
      stderr: 'pipe',
    });
    let tail = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      tail = (tail + chunk.toString()).slice(-STDERR_TAIL_CHARS);
    });
    return { transport, stderrTail: () => tail.trim() };
  }
  const url = new URL(config.url ?? '');
  const requestInit = { headers: config.headers ?? {} };
  const transport =
    config.transport === 'http'
      ? new StreamableHTTPClientTransport(url, { requestInit })
      : new SSEClientTransport(url, { requestInit });
  return { transport, stderrTail: () => '' };
}

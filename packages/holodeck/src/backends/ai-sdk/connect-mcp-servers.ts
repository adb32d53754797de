import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { McpToolConfig } from '../../config/index.js';
import { AgentSessionError } from '../../errors.js';
import { holodeckVersion } from '../../holodeck-version.js';
import { errorMessage, isRecord } from '../../support.js';
import { mcpToolName } from '../../tool-name.js';
import type { Elicit, HoloDeckTool, LoadedTools, ToolOutput } from '../../tools/index.js';
import { createMcpTransport } from './create-mcp-transport.js';
import { mcpResultText } from './mcp-result-text.js';

/** An MCP server of agent.yaml and its position in `tools`, for error messages. */
export interface McpServerEntry {
  index: number;
  config: McpToolConfig;
}

interface ConnectedServer {
  client: Client;
  tools: HoloDeckTool[];
}

const ANY_ELICITATION = z.looseObject({ method: z.literal('elicitation/create') });

/** The calls of one server in flight, each with who answers its elicitations (if anyone). */
type CallsInFlight = Map<symbol, { elicit: Elicit | undefined; signal: AbortSignal | undefined }>;

/**
 * The server's `elicitation/create` requests, answered by the run whose call is in flight: the
 * protocol does not say which call asks, so with calls of two runs in flight at once (a served
 * agent) nobody can tell whose user to ask, and the request is declined, as with no call at all.
 */
function answerElicitations(client: Client, config: McpToolConfig, inFlight: CallsInFlight): void {
  // Registered with a loose schema: the MCP client then validates the request itself and answers one
  // outside the spec with "Invalid elicitation request" (-32602), as the Claude CLI does.
  client.setRequestHandler(ANY_ELICITATION, async (loose, extra) => {
    const request = ElicitRequestSchema.parse(loose);
    const askers = new Set([...inFlight.values()].map((call) => call.elicit));
    const [elicit] = askers;
    const [call] = inFlight.values();
    if (askers.size !== 1 || !elicit || !call) return { action: 'decline' };
    const { params } = request;
    const signal = call.signal ? AbortSignal.any([call.signal, extra.signal]) : extra.signal;
    return elicit(
      {
        server: config.name,
        message: params.message,
        ...(params.mode === 'url'
          ? { mode: 'url' as const, url: params.url }
          : { mode: 'form' as const, requestedSchema: params.requestedSchema }),
      },
      signal,
    );
  });
}

/** Lists every tool of a connected server (all pages) as HoloDeck tools named `mcp__<server>__<tool>`. */
async function listServerTools(
  client: Client,
  config: McpToolConfig,
  inFlight: CallsInFlight,
): Promise<HoloDeckTool[]> {
  const timeout = config.request_timeout * 1000;
  const tools: HoloDeckTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : {}, { timeout });
    for (const listed of page.tools) {
      const name = mcpToolName(config.name, listed.name);
      tools.push({
        name,
        description: listed.description ?? listed.title ?? listed.name,
        inputSchema: listed.inputSchema,
        async execute(input, options = {}): Promise<ToolOutput> {
          const call = Symbol(name);
          inFlight.set(call, { elicit: options.elicit, signal: options.signal });
          try {
            const result = await client.callTool(
              { name: listed.name, arguments: isRecord(input) ? input : {} },
              undefined,
              { timeout, ...(options.signal ? { signal: options.signal } : {}) },
            );
            return { text: mcpResultText(result), isError: result.isError === true };
          } catch (error) {
            return { text: `MCP tool "${name}" failed: ${errorMessage(error)}`, isError: true };
          } finally {
            inFlight.delete(call);
          }
        },
      });
    }
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

async function connectServer(
  entry: McpServerEntry,
  env: Readonly<Record<string, string | undefined>>,
): Promise<ConnectedServer> {
  const { config } = entry;
  const { transport, stderrTail } = createMcpTransport(config, env);
  // Elicitation is declared as on Claude: form and URL requests reach the run's session.
  const client = new Client(
    { name: 'holodeck', version: holodeckVersion() },
    { capabilities: { elicitation: { form: {}, url: {} } } },
  );
  const inFlight: CallsInFlight = new Map();
  answerElicitations(client, config, inFlight);
  try {
    await client.connect(transport, { timeout: config.request_timeout * 1000 });
    return { client, tools: await listServerTools(client, config, inFlight) };
  } catch (error) {
    await client.close().catch(() => {});
    const stderr = stderrTail();
    const where = config.transport === 'stdio' ? `command ${config.command}` : `url ${config.url}`;
    throw new AgentSessionError(
      `MCP server "${config.name}" (tools[${entry.index}], ${where}) did not start: ${errorMessage(error)}` +
        `${stderr ? `\n  its stderr: ${stderr}` : ''}\n  check its command/url and env in agent.yaml`,
      { cause: error },
    );
  }
}

/**
 * Starts (stdio) or reaches (http, sse) every MCP server of agent.yaml and lists its tools once.
 * A server that fails fails the whole start, naming it, after the others are closed again: an
 * agent never runs without tools agent.yaml promised it. `close()` ends every connection.
 */
export async function connectMcpServers(
  entries: readonly McpServerEntry[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<LoadedTools> {
  const settled = await Promise.allSettled(entries.map((entry) => connectServer(entry, env)));
  const servers = settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  const closeAll = async () => {
    await Promise.all(servers.map((server) => server.client.close().catch(() => {})));
  };
  const failures = settled.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
  if (failures.length) {
    await closeAll();
    const messages = failures.map(errorMessage);
    throw new AgentSessionError(messages.join('\n'), { cause: failures[0] });
  }
  let closing: Promise<void> | undefined;
  return {
    tools: servers.flatMap((server) => server.tools),
    close: () => {
      closing ??= closeAll();
      return closing;
    },
  };
}

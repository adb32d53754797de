import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { z } from 'zod';
import { holodeckVersion } from '../holodeck-version.js';
import { readTurn } from './read-turn.js';
import type { RequestLogLine } from './request-log.js';
import { ServeProblem } from './serve-problem.js';
import { defineServeRoute } from './serve-route.js';
import type { ServeServices } from './serve-services.js';
import type { ServedSession } from './session-registry.js';

// MCP (Streamable HTTP, stateless: each POST is answered on its own) exposing the agent as one
// tool, `ask_<agent name>`, so another agent's loop can call it. `session_id` continues a
// conversation (the result names it). An MCP caller cannot answer an approval, so a call that
// needs one is refused with a reason the agent's model sees; a Novarch hold keeps the tool call
// waiting for the operator.

/** The tool's name for an agent: `ask_` and the agent name with `-` as `_`. */
export function askToolName(agentName: string): string {
  return `ask_${agentName.replace(/-/g, '_')}`;
}

const NO_APPROVALS_OVER_MCP =
  'refused: this tool call needs approval, and an MCP caller cannot give one; call the agent over REST, Responses or AG-UI to approve tool calls';

/**
 * What every MCP request's server is made of, built once per app (the agent does not change while
 * it is served): the tool's name and schemas, and one JSON Schema validator (the SDK's default
 * makes a new Ajv with its formats per server, most of a request's cost before the turn).
 */
interface McpToolDefinition {
  serverInfo: { name: string; version: string };
  validator: AjvJsonSchemaValidator;
  name: string;
  config: {
    description: string;
    inputSchema: z.ZodObject<{ message: z.ZodString; session_id: z.ZodOptional<z.ZodString> }>;
    outputSchema: z.ZodObject<{ response: z.ZodString; session_id: z.ZodString }>;
  };
}

const DEFINITIONS = new WeakMap<ServeServices, McpToolDefinition>();

function definitionFor(services: ServeServices): McpToolDefinition {
  const known = DEFINITIONS.get(services);
  if (known) return known;
  const { agent } = services;
  const definition: McpToolDefinition = {
    serverInfo: { name: agent.name, version: holodeckVersion() },
    validator: new AjvJsonSchemaValidator(),
    name: askToolName(agent.name),
    config: {
      description: `Ask the agent "${agent.name}"${agent.description ? `: ${agent.description}` : ''}. Pass the session_id of an earlier answer to continue that conversation.`,
      inputSchema: z.object({
        message: z.string().min(1).max(services.maxMessageChars).describe('What to ask the agent'),
        session_id: z
          .string()
          .min(1)
          .optional()
          .describe('Continue this conversation (from an earlier result)'),
      }),
      outputSchema: z.object({ response: z.string(), session_id: z.string() }),
    },
  };
  DEFINITIONS.set(services, definition);
  return definition;
}

/**
 * The MCP server of one request (a stateless transport serves one request, and a server one
 * transport): the tool, whose calls belong to the request's key and log line.
 */
function mcpServerFor(services: ServeServices, owner: string, log: Partial<RequestLogLine>): McpServer {
  const definition = definitionFor(services);
  const server = new McpServer(definition.serverInfo, { jsonSchemaValidator: definition.validator });
  server.registerTool(definition.name, definition.config, async ({ message, session_id }, extra) => {
    let session: ServedSession;
    try {
      session = session_id
        ? await services.registry.get(session_id, owner)
        : await services.registry.create(owner);
    } catch (error) {
      if (error instanceof ServeProblem)
        return { isError: true, content: [{ type: 'text', text: error.message }] };
      throw error;
    }
    let turn: ReturnType<typeof services.registry.startTurn>;
    try {
      turn = services.registry.startTurn(session, message, 'mcp');
    } catch (error) {
      if (error instanceof ServeProblem)
        return { isError: true, content: [{ type: 'text', text: error.message }] };
      throw error;
    }
    for (;;) {
      log.session = session.id;
      const stop = await readTurn(turn, () => undefined, extra.signal, { throughHolds: true, log });
      if (stop !== 'approval') break;
      for (const approval of turn.pendingApprovals())
        turn.answer(approval.callId, { behavior: 'deny', reason: NO_APPROVALS_OVER_MCP });
    }
    const result = turn.result;
    if (!result || result.is_error)
      return {
        isError: true,
        content: [
          {
            type: 'text',
            text: `the agent run failed: ${result?.error_reason ?? turn.failure ?? 'interrupted'}`,
          },
        ],
      };
    return {
      content: [{ type: 'text', text: result.response }],
      structuredContent: { response: result.response, session_id: session.id },
    };
  });
  return server;
}

export const MCP_ROUTES = [
  defineServeRoute({
    protocol: 'mcp',
    method: 'post',
    path: '/mcp',
    operationId: 'mcp',
    summary:
      'MCP over Streamable HTTP (stateless): the agent as the tool ask_<agent name> (message, session_id)',
    rawBody: { description: 'a JSON-RPC message of MCP' },
    response: {
      json: z.record(z.string(), z.unknown()),
      eventStream: z.record(z.string(), z.unknown()),
      description: 'JSON-RPC answers',
    },
    async handle(request) {
      const server = mcpServerFor(request.services, request.owner, request.log);
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      await server.connect(transport);
      const response = await transport.handleRequest(request.context.req.raw, { parsedBody: request.body });
      return response;
    },
  }),
  defineServeRoute({
    protocol: 'mcp',
    method: 'get',
    path: '/mcp',
    operationId: 'mcpStream',
    summary: 'Not offered: this MCP endpoint is stateless (405)',
    response: { description: 'never' },
    handle() {
      return Promise.reject(
        new ServeProblem(
          405,
          'this MCP endpoint is stateless (no server-initiated stream): POST JSON-RPC messages to /mcp',
        ),
      );
    },
  }),
];

import {
  A2A_PROTOCOL_VERSION,
  A2A_VERSION_HEADER,
  AGENT_CARD_PATH,
  type AgentCard,
  AgentCard as AgentCardJson,
} from '@a2a-js/sdk';
import {
  DefaultRequestHandler,
  defaultServerCallContextBuilder,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
  validateVersion,
} from '@a2a-js/sdk/server';
import { z } from 'zod';
import { holodeckVersion } from '../holodeck-version.js';
import { ServeA2aExecutor } from './a2a-executor.js';
import { defineServeRoute } from './serve-route.js';
import type { ServeServices } from './serve-services.js';
import { sseResponse } from './sse-response.js';

// A2A 1.0 (JSON-RPC binding) with @a2a-js/sdk's request handler: SendMessage,
// SendStreamingMessage, GetTask, CancelTask; tasks are scoped to the API key that made them.

function agentCardOf(services: ServeServices): AgentCard {
  const { agent } = services;
  return {
    name: agent.name,
    description: agent.description ?? `The HoloDeck agent ${agent.name}`,
    supportedInterfaces: [
      {
        url: `${services.publicUrl()}/a2a`,
        protocolBinding: 'JSONRPC',
        tenant: '',
        protocolVersion: A2A_PROTOCOL_VERSION,
      },
    ],
    provider: undefined,
    version: holodeckVersion(),
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: services.keys.enabled
      ? {
          bearer: {
            scheme: {
              $case: 'httpAuthSecurityScheme',
              value: { description: 'an API key of holodeck serve', scheme: 'Bearer', bearerFormat: '' },
            },
          },
        }
      : {},
    securityRequirements: services.keys.enabled ? [{ schemes: { bearer: { list: [] } } }] : [],
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: agent.name,
        name: agent.name,
        description: agent.description ?? `Ask ${agent.name}`,
        tags: ['holodeck', agent.backend],
        examples: [],
        inputModes: ['text/plain'],
        outputModes: ['text/plain'],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
}

interface A2aParts {
  card: AgentCard;
  transport: JsonRpcTransportHandler;
}

function a2aOf(services: ServeServices): A2aParts {
  const existing = services.state.get('a2a');
  if (existing) return existing as A2aParts;
  const card = agentCardOf(services);
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new ServeA2aExecutor(services));
  const parts = { card, transport: new JsonRpcTransportHandler(handler) };
  services.state.set('a2a', parts);
  return parts;
}

export const A2A_ROUTES = [
  defineServeRoute({
    protocol: 'a2a',
    method: 'get',
    path: AGENT_CARD_PATH.startsWith('/') ? AGENT_CARD_PATH : `/${AGENT_CARD_PATH}`,
    operationId: 'agentCard',
    summary: 'The A2A agent card: name, description, skills, supportedInterfaces',
    public: true,
    response: { json: z.record(z.string(), z.unknown()) },
    handle: (request) => Promise.resolve(AgentCardJson.toJSON(a2aOf(request.services).card)),
  }),
  defineServeRoute({
    protocol: 'a2a',
    method: 'post',
    path: '/a2a',
    operationId: 'a2a',
    summary: 'A2A 1.0 JSON-RPC: SendMessage, SendStreamingMessage, GetTask, CancelTask',
    rawBody: { description: 'an A2A JSON-RPC request' },
    response: { json: z.record(z.string(), z.unknown()), eventStream: z.record(z.string(), z.unknown()) },
    async handle(request) {
      const { card, transport } = a2aOf(request.services);
      const owner = request.owner;
      const requestedVersion = request.context.req.header(A2A_VERSION_HEADER) || undefined;
      const context = defaultServerCallContextBuilder({
        extensions: undefined,
        user: { isAuthenticated: true, userName: owner },
        headers: Object.fromEntries(request.context.req.raw.headers),
        requestedVersion,
      });
      const body = z.record(z.string(), z.unknown()).safeParse(request.body);
      const id = body.success ? (body.data.id ?? null) : null;
      try {
        validateVersion(context.requestedVersion, card, 'JSONRPC');
        const answer = await transport.handle(body.success ? body.data : {}, context);
        if (answer && typeof answer === 'object' && Symbol.asyncIterator in answer) {
          const stream = answer as AsyncGenerator<unknown>;
          return sseResponse(request.context.req.raw, async (send, signal) => {
            signal.addEventListener('abort', () => void stream.return(undefined), { once: true });
            for await (const event of stream) send(event);
          });
        }
        return answer;
      } catch (error) {
        return { jsonrpc: '2.0', id, error: JsonRpcTransportHandler.mapToJSONRPCError(error) };
      }
    },
  }),
];

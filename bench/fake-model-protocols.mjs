// @ts-check
// Shared by the benchmarks: for each wire protocol a benchmark measures, how to start its fake
// model server (@holodeck/testkit; one answer for every agent-loop request, for as many as come),
// the variables that point a child process (HoloDeck or a bare SDK script) at it, and the check
// every agent-loop request must pass (check-bench-requests.mjs). Keyed by agent.yaml's provider.
import { chatReply, reply, startFakeAnthropic, startFakeOpenAI } from '@holodeck/testkit';
import { chatRequestProblems, requestProblems } from './check-bench-requests.mjs';

/** The key both sides send; the fake OpenAI server rejects any other (a 401 is an unexpected request). */
export const FAKE_API_KEY = 'sk-bench-fake';

/**
 * One wire protocol's fake server and checks. The server is the protocol's own (FakeAnthropicServer
 * or FakeOpenAIServer): its users reach it through `env`, so it is `any` here.
 * @typedef {object} FakeModelProtocol
 * @property {(options: { answer: string, latencyMs?: number, onRequest?: (request: any) => void }) => Promise<any>} start
 * @property {(server: any) => Record<string, string>} env
 * @property {(request: any, expected: { instructions: string, model: string }) => string[]} requestProblems
 */

/** @type {{ anthropic: FakeModelProtocol, openai: FakeModelProtocol }} */
export const PROTOCOLS = {
  /** Claude Agent SDK and the `claude` CLI: the Anthropic Messages API. */
  anthropic: {
    start: ({ answer, latencyMs, onRequest }) =>
      startFakeAnthropic({ steps: [reply(answer)], repeatLast: true, latencyMs, onRequest }),
    env: (server) => ({ ANTHROPIC_API_KEY: FAKE_API_KEY, ANTHROPIC_BASE_URL: server.url }),
    requestProblems,
  },
  /** The AI SDK (HoloDeck's second backend, and a bare AI SDK script): OpenAI Chat Completions. */
  openai: {
    start: ({ answer, latencyMs, onRequest }) =>
      startFakeOpenAI({ fallback: chatReply(answer), latencyMs, onRequest, apiKey: FAKE_API_KEY }),
    env: (server) => ({ OPENAI_API_KEY: FAKE_API_KEY, OPENAI_BASE_URL: server.baseUrl }),
    requestProblems: chatRequestProblems,
  },
};

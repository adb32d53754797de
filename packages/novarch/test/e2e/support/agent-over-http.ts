import { z } from 'zod';
import { SessionSecrets } from '../../server-support/session-secrets.js';

/** An agent talking to a Novarch server over plain HTTP with its key, as the remote engine does. */
export interface AgentOverHttp {
  /** Opens a session of acme / cs-ops / `agentId`; returns its id. */
  openSession(agentId?: string): Promise<string>;
  /** Records a lookup of `customer` (the evidence rule TEAM-1 wants before a refund). */
  lookup(sessionId: string, customer: string): Promise<void>;
  /** Proposes a refund and returns the server's answer (status and JSON body). */
  refund(
    sessionId: string,
    customer: string,
    amount: number,
    options?: { release?: boolean; deadlineInMs?: number },
  ): Promise<{ status: number; body: unknown }>;
  /** Any JSON request with the key. */
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
}

const SessionSchema = z.object({ id: z.string() });

export function agentOverHttp(serverUrl: string, apiKey: string): AgentOverHttp {
  // The secret of each session this agent opened, sent as its remote engine would.
  const secrets = new SessionSecrets();
  async function call(method: string, path: string, body?: unknown) {
    const response = await fetch(`${serverUrl}${path}`, {
      method,
      headers: {
        ...secrets.headersFor(path),
        authorization: `Bearer ${apiKey}`,
        'content-type': 'application/json',
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    const parsed: unknown = text === '' ? undefined : JSON.parse(text);
    secrets.learn(parsed);
    return { status: response.status, body: parsed };
  }
  return {
    call,
    async openSession(agentId = 'cs-bot') {
      const opened = await call('POST', '/v1/sessions', { teamId: 'cs-ops', agentId });
      if (opened.status !== 201)
        throw new Error(`open session: ${opened.status} ${JSON.stringify(opened.body)}`);
      return SessionSchema.parse(opened.body).id;
    },
    async lookup(sessionId, customer) {
      const now = new Date().toISOString();
      const recorded = await call('POST', `/v1/sessions/${sessionId}/evidence`, {
        toolName: 'mcp__cs__lookup_customer',
        input: { customer_id: customer },
        output: { content: [{ type: 'text', text: `customer ${customer}: in good standing` }] },
        isError: false,
        startedAt: now,
        finishedAt: now,
      });
      if (recorded.status !== 201)
        throw new Error(`evidence: ${recorded.status} ${JSON.stringify(recorded.body)}`);
    },
    refund(sessionId, customer, amount, options = {}) {
      return call('POST', `/v1/sessions/${sessionId}/actions`, {
        actionType: 'issue_refund',
        toolName: 'mcp__cs__issue_refund',
        input: { customer_id: customer, amount },
        context: { recordId: customer, summary: `refund ${customer}`, amount },
        reasoning: 'customer asked',
        ...options,
      });
    },
  };
}

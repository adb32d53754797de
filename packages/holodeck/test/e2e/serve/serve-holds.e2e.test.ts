import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type Message, type Part, Role, type Task, TaskState } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { HttpAgent } from '@ag-ui/client';
import { EventSchema } from '@ag-ui/core/schemas';
import { waitUntil } from '@holodeck/testkit';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendVariants } from '../both-backends/backend-variants.js';
import {
  type GovernedShopOptions,
  governedShopConfig,
  governedShopFiles,
} from '../support/governance-fixtures.js';
import { runNovarchCli } from '../support/run-novarch-cli.js';
import { postJson, type ServeProcess, startServe } from './serve-harness.js';

// Novarch holds through `holodeck serve`, on both backends: a governed write held for an
// operator ends the AG-UI run with a policy_hold interrupt; the caller cannot decide it (refused,
// it stays pending); an operator decides it with the real `novarch` CLI and the resumed run
// reports the decision.

const SHOP: GovernedShopOptions = {
  tools: ['refund_order'],
  rules: ['TEAM-2'],
  refundResult: "'refunded ' + order_id",
  describeTool: () => 'Refunds an order',
};

const novarch = runNovarchCli;

interface SeenEvent {
  type: string;
  [key: string]: unknown;
}
interface Interrupt {
  id: string;
  reason: string;
  toolCallId?: string;
  message?: string;
  responseSchema?: Record<string, unknown>;
}

describe.each(backendVariants())('holodeck serve: Novarch holds as interrupts ($name backend)', (variant) => {
  let server: ServeProcess;
  let directory = '';
  beforeAll(async () => {
    await variant.start();
    const agent = variant.agent(
      governedShopConfig(SHOP),
      governedShopFiles({ ...SHOP, holdWindowSeconds: 120 }),
    );
    directory = agent.directory;
    server = await startServe(agent, ['--protocols', 'ag-ui,rest,a2a,responses']);
  });
  afterAll(async () => {
    await server?.stop();
    await variant.close();
  });

  async function run(client: HttpAgent, parameters: Parameters<HttpAgent['runAgent']>[0] = {}) {
    const events: SeenEvent[] = [];
    await client.runAgent(parameters, { onEvent: ({ event }) => void events.push(event as SeenEvent) });
    for (const event of events) expect(EventSchema.safeParse(event).success, event.type).toBe(true);
    return events;
  }
  const interruptsOf = (events: SeenEvent[]): Interrupt[] => {
    const last = events.at(-1) as { type: string; outcome?: { type: string; interrupts?: Interrupt[] } };
    expect(last.type).toBe('RUN_FINISHED');
    expect(last.outcome?.type).toBe('interrupt');
    return last.outcome?.interrupts ?? [];
  };

  it('ends the run with a policy_hold interrupt the caller cannot decide; the operator decides and the resumed run reports it', async () => {
    variant.script(
      variant.callTool('refund_order', { order_id: 'A-1', amount: 900 }),
      variant.respond((request) => ({
        kind: 'reply',
        text: `result: ${request.toolResults.at(-1)?.text ?? 'none'}`,
      })),
    );
    const client = new HttpAgent({ url: `${server.url}/ag-ui` });
    client.addMessage({ id: 'u1', role: 'user', content: 'Refund order A-1 (900)' });
    let interrupts = interruptsOf(await run(client));
    if (variant.name === 'ai-sdk') {
      // This backend asks before every tool call; Novarch judges the call after the approval.
      expect(interrupts[0]?.reason).toBe('approval');
      interrupts = interruptsOf(
        await run(client, {
          resume: [{ interruptId: interrupts[0]?.id ?? '', status: 'resolved', payload: { approved: true } }],
        }),
      );
    }
    const hold = interrupts[0];
    expect(hold?.reason).toBe('policy_hold');
    expect(hold?.message).toContain('refund_order is held by Novarch rules TEAM-2');
    expect(hold?.responseSchema).toMatchObject({ additionalProperties: false });
    const holdId = (hold?.id ?? '').replace(/^hold:/, '');
    expect(holdId).not.toBe('');
    expect(existsSync(path.join(directory, 'refunds.log'))).toBe(false);

    // The caller tries to approve the hold: refused, on AG-UI and on REST.
    const refused = await postJson(`${server.url}/ag-ui`, {
      threadId: client.threadId,
      runId: 'r-approve',
      messages: [],
      resume: [{ interruptId: hold?.id, status: 'resolved', payload: { approved: true } }],
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { detail: string }).detail).toBe(
      `body.resume.0: "${hold?.id}" is a Novarch hold: it is decided by a Novarch operator, never by the agent's caller, and stays pending; resume with status "resolved" and an empty payload to wait for the decision`,
    );
    expect(existsSync(path.join(directory, 'refunds.log'))).toBe(false);

    // Still pending: the operator's approval succeeds (a decided hold would refuse it).
    const store = path.join(directory, 'novarch.db');
    const decided = await novarch([
      'holds',
      'approve',
      holdId,
      '--store',
      store,
      '--operator',
      'ana',
      '--rationale',
      'checked with finance',
    ]);
    expect(decided.code, decided.output).toBe(0);
    // The turn goes on without a reader (the write runs, the model answers): the resume that
    // comes after still reads the decision and the rest of the turn.
    await waitUntil(() => existsSync(path.join(directory, 'refunds.log')), {
      timeoutMs: 20_000,
      what: 'the approved refund to run (refunds.log)',
    });

    const resumed = await run(client, {
      resume: [{ interruptId: hold?.id ?? '', status: 'resolved', payload: {} }],
    });
    const report = resumed.find(
      (event) => event.type === 'CUSTOM' && event.name === 'holodeck.hold_resolved',
    );
    expect(report?.value).toMatchObject({
      holdId,
      status: 'approved',
      decidedBy: 'ana',
      rationale: 'checked with finance',
    });
    expect(resumed.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(client.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'result: refunded A-1' });
    expect(readFileSync(path.join(directory, 'refunds.log'), 'utf8')).toBe('A-1 900\n');
    variant.checkAndReset();
  });

  it('refuses a REST approval of a hold with 403; an operator deny reaches the model', async () => {
    variant.script(
      variant.callTool('refund_order', { order_id: 'B-2', amount: 700 }),
      variant.respond((request) => ({
        kind: 'reply',
        text: `told: ${request.toolResults.at(-1)?.text ?? 'none'}`,
      })),
    );
    const id = ((await (await postJson(`${server.url}/v1/sessions`, {})).json()) as { id: string }).id;
    let outcome = (await (
      await postJson(`${server.url}/v1/sessions/${id}/messages`, { message: 'Refund B-2 (700)' })
    ).json()) as {
      status: string;
      pendingApprovals: { callId: string }[];
      pendingHolds: { holdId: string }[];
    };
    if (variant.name === 'ai-sdk') {
      outcome = (await (
        await postJson(`${server.url}/v1/sessions/${id}/approvals/${outcome.pendingApprovals[0]?.callId}`, {
          decision: 'allow',
        })
      ).json()) as typeof outcome;
    }
    expect(outcome.status).toBe('requires_action');
    const holdId = outcome.pendingHolds[0]?.holdId ?? '';
    const refused = await postJson(`${server.url}/v1/sessions/${id}/approvals/${holdId}`, {
      decision: 'allow',
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { detail: string }).detail).toContain(
      'holds are decided by a Novarch operator, never by the agent',
    );
    const store = path.join(directory, 'novarch.db');
    const decided = await novarch([
      'holds',
      'deny',
      holdId,
      '--store',
      store,
      '--operator',
      'ana',
      '--rationale',
      'over the monthly limit',
    ]);
    expect(decided.code, decided.output).toBe(0);
    const after = (await (await postJson(`${server.url}/v1/sessions/${id}/continue`, {})).json()) as {
      status: string;
      response: string;
    };
    expect(after.status).toBe('completed');
    expect(after.response).toMatch(/told: .*over the monthly limit/);
    variant.checkAndReset();
  });

  it('puts a held write in input-required on A2A; an approval from the caller is refused, the operator decides', async () => {
    variant.script(
      variant.callTool('refund_order', { order_id: 'C-3', amount: 800 }),
      variant.respond((request) => ({
        kind: 'reply',
        text: `result: ${request.toolResults.at(-1)?.text ?? 'none'}`,
      })),
    );
    const client = await new ClientFactory().createFromUrl(server.url);
    const part = (content: Part['content']): Part => ({
      content,
      metadata: undefined,
      filename: '',
      mediaType: 'text/plain',
    });
    const message = (parts: Part[], task?: Task): Message => ({
      messageId: randomUUID(),
      contextId: task?.contextId ?? '',
      taskId: task?.id ?? '',
      role: Role.ROLE_USER,
      parts,
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    });
    const send = async (parts: Part[], task?: Task) =>
      (await client.sendMessage({
        tenant: '',
        message: message(parts, task),
        configuration: undefined,
        metadata: undefined,
      })) as Task;
    const textOf = (task: Task) =>
      (task.status?.message?.parts ?? [])
        .map((each) => (each.content?.$case === 'text' ? each.content.value : ''))
        .join('');
    let task = await send([part({ $case: 'text', value: 'Refund C-3 (800)' })]);
    if (variant.name === 'ai-sdk') {
      expect(textOf(task)).toContain('needs your approval');
      task = await send([part({ $case: 'data', value: { approved: true } })], task);
    }
    expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(textOf(task)).toContain('is held by Novarch rules TEAM-2');
    const refused = await send([part({ $case: 'data', value: { approved: true } })], task);
    expect(refused.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(textOf(refused)).toContain(
      "a hold is decided by a Novarch operator, never by the agent's caller, and stays pending",
    );
    const holdData = (refused.status?.message?.parts ?? []).find(
      (each) => each.content?.$case === 'data',
    )?.content;
    const holdId = holdData?.$case === 'data' ? String(holdData.value.holdId) : '';
    const store = path.join(directory, 'novarch.db');
    const decided = await novarch([
      'holds',
      'approve',
      holdId,
      '--store',
      store,
      '--operator',
      'ana',
      '--rationale',
      'fine',
    ]);
    expect(decided.code, decided.output).toBe(0);
    const done = await send([part({ $case: 'text', value: 'waiting for the decision' })], task);
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textOf(done)).toBe('result: refunded C-3');
    variant.checkAndReset();
  });

  it('streams a held write as response.hold.pending on Responses; the response goes on after the operator decides', async () => {
    variant.script(
      variant.callTool('refund_order', { order_id: 'D-4', amount: 650 }),
      variant.respond((request) => ({
        kind: 'reply',
        text: `result: ${request.toolResults.at(-1)?.text ?? 'none'}`,
      })),
    );
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    let previous: string | undefined;
    let input: OpenAI.Responses.ResponseCreateParams['input'] = 'Refund D-4 (650)';
    if (variant.name === 'ai-sdk') {
      const asked = await client.responses.create({ model: 'agent', input });
      const request = asked.output.find((item) => item.type === 'mcp_approval_request');
      previous = asked.id;
      input = [{ type: 'mcp_approval_response', approval_request_id: request?.id ?? '', approve: true }];
    }
    const stream = await client.responses.create({
      model: 'agent',
      input,
      stream: true,
      ...(previous ? { previous_response_id: previous } : {}),
    });
    const store = path.join(directory, 'novarch.db');
    const types: string[] = [];
    let text = '';
    for await (const event of stream) {
      const type = String(event.type);
      types.push(type);
      if (type === 'response.hold.pending') {
        const hold = (event as unknown as { hold: { hold_id: string; rule_ids: string[] } }).hold;
        expect(hold.rule_ids).toEqual(['TEAM-2']);
        const decided = await novarch([
          'holds',
          'approve',
          hold.hold_id,
          '--store',
          store,
          '--operator',
          'ana',
          '--rationale',
          'ok',
        ]);
        expect(decided.code, decided.output).toBe(0);
      }
      if (event.type === 'response.output_text.delta') text += event.delta;
    }
    expect(types).toContain('response.hold.pending');
    expect(types).toContain('response.hold.resolved');
    expect(types.at(-1)).toBe('response.completed');
    expect(text).toBe('result: refunded D-4');
    variant.checkAndReset();
  });
});

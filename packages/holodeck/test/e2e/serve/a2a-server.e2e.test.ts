import { randomUUID } from 'node:crypto';
import { type Message, type Part, Role, type Task, TaskState } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { chatReply, reply, toolUse } from '@holodeck/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendVariants } from '../both-backends/backend-variants.js';
import { type ServeProcess, startServe } from './serve-harness.js';

// A2A 1.0 through `holodeck serve`, with @a2a-js/sdk's own client on both backends: the agent
// card, SendMessage, SendStreamingMessage, GetTask, CancelTask, and approvals as input-required.

const NOTES = `export const saveNote = () => 'saved';`;
const SAVE_NOTE = {
  type: 'function',
  name: 'save_note',
  description: 'Saves a note',
  file: 'notes.mjs',
  function: 'saveNote',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};

const text = (value: string): Part => ({
  content: { $case: 'text', value },
  metadata: undefined,
  filename: '',
  mediaType: 'text/plain',
});
const data = (value: Record<string, unknown>): Part => ({
  content: { $case: 'data', value },
  metadata: undefined,
  filename: '',
  mediaType: 'application/json',
});

function userMessage(parts: Part[], ids: { contextId?: string; taskId?: string } = {}): Message {
  return {
    messageId: randomUUID(),
    contextId: ids.contextId ?? '',
    taskId: ids.taskId ?? '',
    role: Role.ROLE_USER,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}
const send = (message: Message) => ({ tenant: '', message, configuration: undefined, metadata: undefined });

function asTask(result: unknown): Task {
  expect(result).toHaveProperty('status');
  return result as Task;
}
const textOf = (parts: Part[] | undefined) =>
  (parts ?? []).map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');

describe.each(backendVariants())('holodeck serve: A2A ($name backend)', (variant) => {
  let server: ServeProcess;
  let client: Awaited<ReturnType<ClientFactory['createFromUrl']>>;
  beforeAll(async () => {
    await variant.start();
    const agent =
      variant.name === 'claude'
        ? variant.agent({
            description: 'Answers questions about France',
            claude: { working_directory: '.', file_system: { write: true } },
          })
        : variant.agent(
            { description: 'Answers questions about France', tools: [SAVE_NOTE] },
            { 'notes.mjs': NOTES },
          );
    server = await startServe(agent, ['--protocols', 'a2a']);
    client = await new ClientFactory().createFromUrl(server.url);
  });
  afterAll(async () => {
    await server?.stop();
    await variant.close();
  });

  it('publishes an agent card with the agent, its skill and the JSON-RPC interface', async () => {
    const card = await client.getAgentCard();
    expect(card.name).toBe('e2e-agent');
    expect(card.description).toBe('Answers questions about France');
    expect(card.skills.map((skill) => skill.id)).toEqual(['e2e-agent']);
    expect(card.supportedInterfaces).toEqual([
      expect.objectContaining({
        url: `${server.url}/a2a`,
        protocolBinding: 'JSONRPC',
        protocolVersion: '1.0',
      }),
    ]);
    expect(card.capabilities?.streaming).toBe(true);
  });

  it('answers SendMessage with a completed task, keeps the context across tasks, and GetTask finds it', async () => {
    variant.script(variant.reply('Paris.'), variant.reply('About 2.1 million.'));
    const first = asTask(await client.sendMessage(send(userMessage([text('Capital of France?')]))));
    expect(first.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textOf(first.artifacts[0]?.parts)).toBe('Paris.');
    const second = asTask(
      await client.sendMessage(send(userMessage([text('Its population?')], { contextId: first.contextId }))),
    );
    expect(textOf(second.artifacts[0]?.parts)).toBe('About 2.1 million.');
    expect(variant.requests().at(-1)?.conversation).toContain('Capital of France?');
    const fetched = await client.getTask({ tenant: '', id: first.id, historyLength: undefined });
    expect(fetched.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    variant.checkAndReset();
  });

  it('streams a task: submitted, working, the artifact, completed', async () => {
    variant.script(variant.reply('Streamed.'));
    const states: TaskState[] = [];
    let answer = '';
    for await (const event of client.sendMessageStream(send(userMessage([text('Stream it')])))) {
      const payload = event.payload;
      if (payload?.$case === 'task')
        states.push(payload.value.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED);
      if (payload?.$case === 'statusUpdate')
        states.push(payload.value.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED);
      if (payload?.$case === 'artifactUpdate') answer += textOf(payload.value.artifact?.parts);
    }
    expect(states[0]).toBe(TaskState.TASK_STATE_SUBMITTED);
    expect(states).toContain(TaskState.TASK_STATE_WORKING);
    expect(states.at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answer).toBe('Streamed.');
    variant.checkAndReset();
  });

  it('puts a call that needs approval in input-required, and completes the task once approved', async () => {
    const call =
      variant.name === 'claude'
        ? toolUse('Write', { file_path: 'a2a.log', content: 'x' })
        : variant.callTool('save_note', { text: 'x' });
    variant.script(call, variant.reply('Saved.'));
    const asked = asTask(await client.sendMessage(send(userMessage([text('Save x')]))));
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(textOf(asked.status?.message?.parts)).toContain('needs your approval');
    const answered = asTask(
      await client.sendMessage(
        send(userMessage([data({ approved: true })], { contextId: asked.contextId, taskId: asked.id })),
      ),
    );
    expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textOf(answered.artifacts.at(-1)?.parts)).toBe('Saved.');
    variant.checkAndReset();
  });

  it('cancels a running task with CancelTask', async () => {
    variant.script(
      variant.name === 'claude' ? reply('late', { delayMs: 8_000 }) : chatReply('late', { delayMs: 8_000 }),
    );
    const stream = client.sendMessageStream(send(userMessage([text('Take your time')])));
    let taskId = '';
    let last: TaskState | undefined;
    for await (const event of stream) {
      const payload = event.payload;
      if (payload?.$case === 'task') {
        taskId = payload.value.id;
      }
      if (payload?.$case === 'statusUpdate') {
        last = payload.value.status?.state;
        if (last === TaskState.TASK_STATE_WORKING && taskId) {
          const canceled = await client.cancelTask({ tenant: '', id: taskId, metadata: undefined });
          expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
        }
      }
    }
    expect(last).toBe(TaskState.TASK_STATE_CANCELED);
    variant.discardScript();
  });
});

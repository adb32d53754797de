import { readFileSync } from 'node:fs';
import path from 'node:path';
import { HttpAgent } from '@ag-ui/client';
import { EventSchema } from '@ag-ui/core/schemas';
import { toolUse } from '@holodeck/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendVariants } from '../both-backends/backend-variants.js';
import type { E2eAgent } from '../support/e2e-agent.js';
import { type ServeProcess, startServe } from './serve-harness.js';

// AG-UI 1.0 through `holodeck serve`, driven by @ag-ui/client's HttpAgent on both backends; every
// event the server emits is checked against @ag-ui/core's published schemas.

const NOTES = `
import { appendFileSync } from 'node:fs';
export const saveNote = ({ text }) => {
  appendFileSync(new URL('./notes.log', import.meta.url), text + '\\n');
  return 'saved';
};
`;
const SAVE_NOTE = {
  type: 'function',
  name: 'save_note',
  description: 'Saves a note',
  file: 'notes.mjs',
  function: 'saveNote',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};

interface SeenEvent {
  type: string;
  [key: string]: unknown;
}

describe.each(backendVariants())('holodeck serve: AG-UI ($name backend)', (variant) => {
  let server: ServeProcess;
  let agent: E2eAgent;
  beforeAll(async () => {
    await variant.start();
    agent =
      variant.name === 'claude'
        ? variant.agent({ claude: { working_directory: '.', file_system: { write: true } } })
        : variant.agent({ tools: [SAVE_NOTE] }, { 'notes.mjs': NOTES });
    server = await startServe(agent, ['--protocols', 'ag-ui,rest']);
  });
  afterAll(async () => {
    await server?.stop();
    await variant.close();
  });

  /** Runs the agent and returns every event it received, each checked against the AG-UI schema. */
  async function run(client: HttpAgent, parameters: Parameters<HttpAgent['runAgent']>[0] = {}) {
    const events: SeenEvent[] = [];
    await client.runAgent(parameters, {
      onEvent: ({ event }) => {
        events.push(event as SeenEvent);
      },
    });
    for (const event of events) {
      const checked = EventSchema.safeParse(event);
      expect(checked.success, `${event.type}: ${checked.error?.message}`).toBe(true);
    }
    return events;
  }

  it('streams an answer as AG-UI events and keeps the thread across runs', async () => {
    variant.script(variant.reply('Paris.'), variant.reply('About 2.1 million.'));
    const client = new HttpAgent({ url: `${server.url}/ag-ui` });
    client.addMessage({ id: 'u1', role: 'user', content: 'Capital of France?' });
    const first = await run(client);
    expect(first.map((event) => event.type)).toEqual([
      'RUN_STARTED',
      'TEXT_MESSAGE_START',
      ...first.filter((event) => event.type === 'TEXT_MESSAGE_CONTENT').map(() => 'TEXT_MESSAGE_CONTENT'),
      'TEXT_MESSAGE_END',
      'MESSAGES_SNAPSHOT',
      'RUN_FINISHED',
    ]);
    expect(client.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Paris.' });
    client.addMessage({ id: 'u2', role: 'user', content: 'Its population?' });
    const second = await run(client);
    expect(second.at(-1)).toMatchObject({
      type: 'RUN_FINISHED',
      threadId: client.threadId,
      outcome: { type: 'success' },
    });
    expect(client.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'About 2.1 million.' });
    // The same backend session: the second model request carried the first turn.
    expect(variant.requests().at(-1)?.conversation).toContain('Capital of France?');
    variant.checkAndReset();
  });

  it('ends a run with an approval interrupt, and continues the same turn on resume', async () => {
    const call =
      variant.name === 'claude'
        ? toolUse('Write', { file_path: 'ag-ui.log', content: 'pick up parcel' })
        : variant.callTool('save_note', { text: 'pick up parcel' });
    variant.script(call, variant.reply('Noted.'));
    const client = new HttpAgent({ url: `${server.url}/ag-ui` });
    client.addMessage({ id: 'u1', role: 'user', content: 'Note: pick up parcel' });
    const first = await run(client);
    const finished = first.at(-1) as {
      type: string;
      outcome: { type: string; interrupts: Record<string, unknown>[] };
    };
    expect(finished.type).toBe('RUN_FINISHED');
    expect(finished.outcome.type).toBe('interrupt');
    const interrupt = finished.outcome.interrupts[0] ?? {};
    expect(interrupt).toMatchObject({ reason: 'approval', toolCallId: interrupt.id });
    expect(String(interrupt.message)).toContain('needs your approval');
    expect(interrupt.responseSchema).toMatchObject({ required: ['approved'] });
    expect(client.pendingInterrupts.map((pending) => pending.id)).toEqual([interrupt.id]);
    // A new message while the run waits: the server refuses it (409), the turn still waits.
    const busy = await fetch(`${server.url}/ag-ui`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        threadId: client.threadId,
        runId: 'r-x',
        messages: [{ id: 'u9', role: 'user', content: 'hello?' }],
      }),
    });
    expect(busy.status).toBe(409);
    const second = await run(client, {
      resume: [{ interruptId: String(interrupt.id), status: 'resolved', payload: { approved: true } }],
    });
    const types = second.map((event) => event.type);
    expect(types).toContain('TOOL_CALL_RESULT');
    expect(second.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(client.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Noted.' });
    const file = variant.name === 'claude' ? 'ag-ui.log' : 'notes.log';
    expect(readFileSync(path.join(agent.directory, file), 'utf8')).toContain('pick up parcel');
    variant.checkAndReset();
  });

  it('refuses input that is not a RunAgentInput with a problem naming the field', async () => {
    const response = await fetch(`${server.url}/ag-ui`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ threadId: 't', messages: [] }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { detail: string }).detail).toMatch(
      /^body is not an AG-UI RunAgentInput: body\.runId: /,
    );
  });
});

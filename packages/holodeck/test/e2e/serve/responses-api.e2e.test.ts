import { readFileSync } from 'node:fs';
import path from 'node:path';
import { toolUse } from '@holodeck/testkit';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendVariants } from '../both-backends/backend-variants.js';
import type { E2eAgent } from '../support/e2e-agent.js';
import { type ServeProcess, startServe } from './serve-harness.js';

// The OpenAI Responses API of `holodeck serve`, driven by the `openai` npm client, on both
// backends: plain and streamed turns, previous_response_id, server-side tools, approvals.

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

describe.each(backendVariants())('holodeck serve: OpenAI Responses ($name backend)', (variant) => {
  let server: ServeProcess;
  let agent: E2eAgent;
  let client: OpenAI;
  beforeAll(async () => {
    await variant.start();
    agent =
      variant.name === 'claude'
        ? variant.agent({ claude: { working_directory: '.', file_system: { write: true } } })
        : variant.agent({ tools: [SAVE_NOTE] }, { 'notes.mjs': NOTES });
    server = await startServe(agent, ['--protocols', 'responses']);
    client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'unused-on-loopback', maxRetries: 0 });
  });
  afterAll(async () => {
    await server?.stop();
    await variant.close();
  });

  it('answers, keeps the conversation by previous_response_id, and stores each response', async () => {
    variant.script(variant.reply('Paris.'), variant.reply('About 2.1 million.'));
    const first = await client.responses.create({ model: 'agent', input: 'Capital of France?' });
    expect(first.status).toBe('completed');
    expect(first.output_text).toBe('Paris.');
    expect(first.id).toMatch(/^resp_/);
    const second = await client.responses.create({
      model: 'agent',
      input: [{ role: 'user', content: 'Its population?' }],
      previous_response_id: first.id,
    });
    expect(second.output_text).toBe('About 2.1 million.');
    expect(second.previous_response_id).toBe(first.id);
    expect(variant.requests().at(-1)?.conversation).toContain('Capital of France?');
    expect(second.usage?.total_tokens).toBeGreaterThan(0);
    const again = await client.responses.retrieve(first.id);
    expect(again.output_text).toBe('Paris.');
    variant.checkAndReset();
  });

  it('streams text deltas and ends with response.completed', async () => {
    variant.script(variant.reply('Streaming works.'));
    const stream = await client.responses.create({ model: 'agent', input: 'Stream please', stream: true });
    const types: string[] = [];
    let text = '';
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = event.response;
    }
    expect(types[0]).toBe('response.created');
    expect(types).toContain('response.output_text.delta');
    expect(types.at(-1)).toBe('response.completed');
    expect(text).toBe('Streaming works.');
    expect(
      completed?.output_text ??
        completed?.output
          .map((item) =>
            item.type === 'message'
              ? item.content.map((part) => (part.type === 'output_text' ? part.text : '')).join('')
              : '',
          )
          .join(''),
    ).toBe('Streaming works.');
    variant.checkAndReset();
  });

  it('asks for approval with an mcp_approval_request item and goes on after mcp_approval_response', async () => {
    const call =
      variant.name === 'claude'
        ? toolUse('Write', { file_path: 'approved.log', content: 'buy milk' })
        : variant.callTool('save_note', { text: 'buy milk' });
    variant.script(call, variant.reply('Saved.'));
    const asked = await client.responses.create({ model: 'agent', input: 'Save "buy milk"' });
    const request = asked.output.find((item) => item.type === 'mcp_approval_request');
    expect(request).toBeDefined();
    if (request?.type !== 'mcp_approval_request') return;
    expect(request.name).toMatch(variant.name === 'claude' ? /^Write$/ : /save_note/);
    expect(JSON.parse(request.arguments)).toMatchObject(
      variant.name === 'claude' ? { content: 'buy milk' } : { text: 'buy milk' },
    );
    const done = await client.responses.create({
      model: 'agent',
      previous_response_id: asked.id,
      input: [{ type: 'mcp_approval_response', approval_request_id: request.id, approve: true }],
    });
    expect(done.output_text).toBe('Saved.');
    const call_ = done.output.find((item) => item.type === 'mcp_call');
    expect(call_).toMatchObject({ type: 'mcp_call', server_label: 'e2e-agent' });
    const written = variant.name === 'claude' ? 'approved.log' : 'notes.log';
    expect(readFileSync(path.join(agent.directory, written), 'utf8')).toContain('buy milk');
    variant.checkAndReset();
  });

  it('refuses what it cannot honour with a 400 naming the field', async () => {
    await expect(
      client.responses.create({ model: 'agent', input: 'hi', instructions: 'be a pirate' }),
    ).rejects.toMatchObject({
      status: 400,
    });
    const raw = await fetch(`${server.url}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'agent', input: 'hi', instructions: 'be a pirate' }),
    });
    expect(((await raw.json()) as { detail: string }).detail).toBe(
      "body.instructions: is not accepted: the agent's instructions are its own (agent.yaml instructions)",
    );
    await expect(
      client.responses.create({ model: 'agent', input: 'hi', previous_response_id: 'resp_unknown' }),
    ).rejects.toMatchObject({ status: 404 });
    // REST is switched off on this server (--protocols responses).
    expect((await fetch(`${server.url}/v1/sessions`, { method: 'POST' })).status).toBe(404);
  });
});

import { toolUse } from '@holodeck/testkit';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendVariants } from '../both-backends/backend-variants.js';
import { type ServeProcess, startServe } from './serve-harness.js';

// The agent as an MCP tool (`ask_<agent name>`, Streamable HTTP) through `holodeck serve`, called
// with the MCP SDK's own client on both backends.

const NOTES = `export const saveNote = () => 'saved';`;
const SAVE_NOTE = {
  type: 'function',
  name: 'save_note',
  description: 'Saves a note',
  file: 'notes.mjs',
  function: 'saveNote',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};

describe.each(backendVariants())('holodeck serve: MCP ($name backend)', (variant) => {
  let server: ServeProcess;
  let client: Client;
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
    server = await startServe(agent, ['--protocols', 'mcp']);
    client = new Client({ name: 'serve-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  });
  afterAll(async () => {
    await client?.close();
    await server?.stop();
    await variant.close();
  });

  it('offers one tool, ask_<agent name>, with message and an optional session_id', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['ask_e2e_agent']);
    expect(tools[0]?.description).toContain('Answers questions about France');
    expect(tools[0]?.inputSchema).toMatchObject({ required: ['message'] });
    expect(Object.keys(tools[0]?.inputSchema.properties ?? {})).toEqual(['message', 'session_id']);
  });

  it('answers a call, and continues the conversation with the session_id it returned', async () => {
    variant.script(variant.reply('Paris.'), variant.reply('About 2.1 million.'));
    const first = await client.callTool({
      name: 'ask_e2e_agent',
      arguments: { message: 'Capital of France?' },
    });
    expect(first.isError).toBeFalsy();
    expect(first.content).toEqual([{ type: 'text', text: 'Paris.' }]);
    const sessionId = (first.structuredContent as { session_id: string }).session_id;
    expect(sessionId).toMatch(/\./);
    const second = await client.callTool({
      name: 'ask_e2e_agent',
      arguments: { message: 'Its population?', session_id: sessionId },
    });
    expect(second.structuredContent).toEqual({ response: 'About 2.1 million.', session_id: sessionId });
    expect(variant.requests().at(-1)?.conversation).toContain('Capital of France?');
    variant.checkAndReset();
  });

  it('refuses a tool call that needs approval (an MCP caller cannot give one), with the reason sent to the model', async () => {
    const call =
      variant.name === 'claude'
        ? toolUse('Write', { file_path: 'mcp.log', content: 'x' })
        : variant.callTool('save_note', { text: 'x' });
    variant.script(call, variant.reply('I could not save it.'));
    const result = await client.callTool({ name: 'ask_e2e_agent', arguments: { message: 'Save x' } });
    expect(result.content).toEqual([{ type: 'text', text: 'I could not save it.' }]);
    expect(
      variant
        .requests()
        .at(-1)
        ?.toolResults.map((sent) => sent.text)
        .join(' '),
    ).toContain('an MCP caller cannot give one');
    variant.checkAndReset();
  });

  it('answers an unknown session_id as a tool error, not a protocol failure', async () => {
    const result = await client.callTool({
      name: 'ask_e2e_agent',
      arguments: { message: 'hi', session_id: 'nobody.0000' },
    });
    expect(result.isError).toBe(true);
    const [content] = result.content as { type: string; text: string }[];
    expect(content?.text).toMatch(/^session "nobody\.0000" is held by instance "nobody", not this one/);
  });
});

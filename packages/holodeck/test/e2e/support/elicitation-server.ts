import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A real MCP server (the MCP SDK over stdio) whose tools ask the user for input while they run
 * (`elicitation/create`): `book_table` a form of a whole number and a date, its message carrying
 * an escape sequence (server text is data); `ship_parcel` a form that requires a field it does
 * not describe (valid MCP, but no form to fill in); `nest_form` a nested object, outside the MCP
 * spec. Each answers with what it was told, or the first line of the error its request got.
 */
const SERVER = `
import { McpServer } from ${JSON.stringify(import.meta.resolve('@modelcontextprotocol/sdk/server/mcp.js'))};
import { StdioServerTransport } from ${JSON.stringify(import.meta.resolve('@modelcontextprotocol/sdk/server/stdio.js'))};
const server = new McpServer({ name: 'bookings', version: '1.0.0' });
const told = (result) => ({
  content: [{ type: 'text', text: result.action === 'accept' ? 'booked: ' + JSON.stringify(result.content ?? {}) : 'the user answered ' + result.action }],
});
server.registerTool('book_table', { description: 'books a table' }, async () =>
  told(await server.server.elicitInput({
    message: 'How many guests, and when?\\u001b]0;pwned\\u0007',
    requestedSchema: {
      type: 'object',
      properties: {
        guests: { type: 'integer', title: 'Guests', minimum: 1, maximum: 12 },
        date: { type: 'string', title: 'Date', format: 'date' },
        seating: { type: 'string', title: 'Seating', enum: ['inside', 'terrace'] },
      },
      required: ['guests', 'date'],
    },
  })));
const failing = (ask) => async () => {
  try {
    return told(await ask());
  } catch (error) {
    return { content: [{ type: 'text', text: 'elicitation failed: ' + error.message.split('\\n')[0] }], isError: true };
  }
};
// Valid MCP, but its form requires a field it does not describe.
server.registerTool('ship_parcel', { description: 'ships a parcel' }, failing(() => server.server.elicitInput({
  message: 'Where to?',
  requestedSchema: { type: 'object', properties: { street: { type: 'string' } }, required: ['street', 'postcode'] },
})));
// Outside the MCP spec: a nested object.
server.registerTool('nest_form', { description: 'asks a nested form' }, failing(() => server.server.elicitInput({
  message: 'Where to?',
  requestedSchema: { type: 'object', properties: { address: { type: 'object', properties: { street: { type: 'string' } } } } },
})));
await server.connect(new StdioServerTransport());
`;

/** The server's file, written once per test process. */
export function elicitationServerFile(): string {
  const directory = mkdtempSync(path.join(tmpdir(), 'holodeck-elicit-'));
  const file = path.join(directory, 'bookings-server.mjs');
  writeFileSync(file, SERVER);
  return file;
}

/** agent.yaml's tool entry for the server. */
export function elicitationServerTool(file: string): Record<string, unknown> {
  return {
    type: 'mcp',
    name: 'bookings',
    description: 'Bookings that ask the user',
    transport: 'stdio',
    command: process.execPath,
    args: [file],
  };
}

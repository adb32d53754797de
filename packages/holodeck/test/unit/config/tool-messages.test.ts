import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AgentSandbox, BASE, brief, createSandbox, lines } from './agent-sandbox.js';

let sandbox: AgentSandbox;
beforeEach(async () => {
  sandbox = await createSandbox();
});
afterEach(() => sandbox.remove());

async function issuesOf(...toolLines: string[]): Promise<string[]> {
  const result = await sandbox.validate(lines(...BASE, 'tools:', ...toolLines));
  return result.issues.map(brief);
}

describe('tools', () => {
  it('rejects an unknown tool type with a did-you-mean', async () => {
    expect(await issuesOf('  - type: mpc', '    name: srv', '    description: d')).toEqual([
      '8:11 tools[0].type: expected one of "mcp", "function", "vectorstore", "hierarchical_document"; got the string "mpc" | did you mean "mcp"?',
    ]);
  });

  it('reports a missing tool type', async () => {
    expect(await issuesOf('  - name: srv', '    description: d')).toEqual([
      '8:5 tools[0].type: missing required key "type" in tools[0] | one of: "mcp", "function", "vectorstore", "hierarchical_document"',
    ]);
  });

  it('reports duplicate tool names at the second one', async () => {
    const mcp = (name: string) => [
      `  - type: mcp`,
      `    name: ${name}`,
      '    description: d',
      '    command: npx',
    ];
    expect(await issuesOf(...mcp('files'), ...mcp('other'), ...mcp('files'))).toEqual([
      '17:11 tools[2].name: duplicate tool name "files"; tools[0] already uses it | tool names must be unique: rename one of them',
    ]);
  });

  it('checks the tool name pattern', async () => {
    expect(
      await issuesOf('  - type: mcp', '    name: my tool', '    description: d', '    command: npx'),
    ).toEqual([
      '9:11 tools[0].name: must start with a letter and have at most 64 letters, digits, "_" or "-"; got the string "my tool"',
    ]);
  });
});

describe('MCP transport fields', () => {
  it('rejects http fields on a stdio server and requires command', async () => {
    expect(
      await issuesOf(
        '  - type: mcp',
        '    name: srv',
        '    description: d',
        '    url: https://example.com/mcp',
        '    headers: {A: b}',
      ),
    ).toEqual([
      '8:5 tools[0].command: missing required key "command" for transport stdio | add command: <program that starts the MCP server>, or set transport: http with a url',
      '11:10 tools[0].url: "url" is not used with transport stdio | remove it, or set transport: http (or sse) to reach a server by URL',
      '12:5 tools[0].headers: "headers" is not used with transport stdio | remove it, or set transport: http (or sse) to reach a server by URL',
    ]);
  });

  it('rejects stdio fields on an http server and requires a valid url', async () => {
    expect(
      await issuesOf(
        '  - type: mcp',
        '    name: srv',
        '    description: d',
        '    transport: sse',
        '    command: npx',
        '    args: [x]',
      ),
    ).toEqual([
      '8:5 tools[0].url: missing required key "url" for transport sse | add url: https://<host>/mcp',
      '12:14 tools[0].command: "command" is not used with transport sse | remove it: only stdio servers are started with command, args, env and cwd',
      '13:5 tools[0].args: "args" is not used with transport sse | remove it: only stdio servers are started with command, args, env and cwd',
    ]);
    expect(
      await issuesOf(
        '  - type: mcp',
        '    name: srv',
        '    description: d',
        '    transport: http',
        '    url: ftp://example.com',
      ),
    ).toEqual([
      '12:10 tools[0].url: expected an http(s) URL, got the string "ftp://example.com" | for example https://example.com/mcp',
    ]);
  });

  it('rejects a bad transport and a non-positive timeout', async () => {
    expect(
      await issuesOf(
        '  - type: mcp',
        '    name: srv',
        '    description: d',
        '    transport: websocket',
        '    request_timeout: 0',
      ),
    ).toEqual([
      '11:16 tools[0].transport: expected one of "stdio", "http", "sse"; got the string "websocket"',
      '12:22 tools[0].request_timeout: must be greater than 0, got the number 0',
    ]);
  });
});

describe('function tools', () => {
  const tool = (...extra: string[]) => [
    '  - type: function',
    '    name: lookup',
    '    description: d',
    ...extra,
  ];

  it('requires an existing .js/.mjs/.ts module', async () => {
    expect(await issuesOf(...tool('    file: tools/lookup.mjs', '    parameters: {type: object}'))).toEqual([
      `11:11 tools[0].file: function tool module not found: ${sandbox.dir}/tools/lookup.mjs | create the file or fix the path; relative paths start from ${sandbox.dir}`,
    ]);
    expect(await issuesOf(...tool('    file: tools/lookup.py', '    parameters: {type: object}'))).toEqual([
      '11:11 tools[0].file: must be a .js, .mjs or .ts module; got the string "tools/lookup.py"',
    ]);
  });

  it('requires parameters to be an object schema', async () => {
    await sandbox.write('lookup.mjs', 'export const lookup = () => 1;');
    expect(await issuesOf(...tool('    file: lookup.mjs', '    parameters: {type: string}'))).toEqual([
      '12:24 tools[0].parameters.type: expected "object"; got the string "string"',
    ]);
  });

  it('reports parameters that are not a valid JSON Schema', async () => {
    await sandbox.write('lookup.mjs', 'export const lookup = () => 1;');
    const misspelt = tool(
      '    file: lookup.mjs',
      '    parameters:',
      '      type: object',
      '      proprties: {id: {type: string}}',
    );
    expect(await issuesOf(...misspelt)).toEqual([
      '12:5 tools[0].parameters: not a valid JSON Schema: unknown keyword: "proprties" | did you mean "properties"?',
    ]);
    const badType = tool(
      '    file: lookup.mjs',
      '    parameters:',
      '      type: object',
      '      properties: {id: {type: text}}',
    );
    expect(await issuesOf(...badType)).toEqual([
      '12:5 tools[0].parameters: not a valid JSON Schema: at /properties/id/type: must be equal to one of the allowed values (array, boolean, integer, null, number, object, string) | see https://json-schema.org/understanding-json-schema',
    ]);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AgentSandbox, BASE, brief, createSandbox, lines } from './agent-sandbox.js';

let sandbox: AgentSandbox;
beforeEach(async () => {
  sandbox = await createSandbox();
  await sandbox.write('lookup.mjs', 'export const lookup_order = () => 1;');
});
afterEach(() => sandbox.remove());

const TOOLS = [
  'tools:',
  '  - type: function',
  '    name: lookup_order',
  '    description: Looks up an order',
  '    file: lookup.mjs',
  '    parameters: {type: object}',
  '  - type: mcp',
  '    name: github',
  '    description: GitHub MCP server',
  '    command: npx',
];

async function issuesFor(...allowed: string[]): Promise<string[]> {
  const yaml = lines(
    ...BASE,
    ...TOOLS,
    'claude:',
    '  file_system: {read: true}',
    '  allowed_tools:',
    ...allowed.map((entry) => `    - "${entry}"`),
  );
  return (await sandbox.validate(yaml)).issues.map(brief);
}

describe('claude.allowed_tools', () => {
  it('accepts enabled built-ins, tool names, in-process ids and whole MCP servers', async () => {
    const entries = [
      'Read',
      'Grep',
      'lookup_order',
      'mcp__holodeck_tools__lookup_order',
      'mcp__holodeck_tools__*',
      'github',
      'mcp__github',
      'mcp__github__*',
      'mcp__github__create_issue',
    ];
    expect(await issuesFor(...entries)).toEqual([]);
  });

  it('rejects an unknown name with a did-you-mean', async () => {
    expect(await issuesFor('lookup_ordr', 'mcp__gihub__create_issue')).toEqual([
      '20:7 claude.allowed_tools[0]: unknown tool "lookup_ordr" in claude.allowed_tools | did you mean "lookup_order"?',
      '21:7 claude.allowed_tools[1]: unknown tool "mcp__gihub__create_issue" in claude.allowed_tools | did you mean "mcp__github__create_issue"?',
    ]);
  });

  it('names the setting that enables a built-in tool the config leaves off', async () => {
    expect(await issuesFor('Bash', 'WebFetch')).toEqual([
      '20:7 claude.allowed_tools[0]: "Bash" is a built-in tool that this configuration does not enable | enable it with claude.bash.enabled: true, or remove it from allowed_tools',
      '21:7 claude.allowed_tools[1]: "WebFetch" is a built-in tool that this configuration does not enable | enable it with claude.web_search: true, or remove it from allowed_tools',
    ]);
  });

  it('does not accept an in-process id for a tool that does not exist', async () => {
    expect(await issuesFor('mcp__holodeck_tools__delete_order')).toEqual([
      '20:7 claude.allowed_tools[0]: unknown tool "mcp__holodeck_tools__delete_order" in claude.allowed_tools | did you mean "mcp__holodeck_tools__lookup_order"?',
    ]);
  });
});

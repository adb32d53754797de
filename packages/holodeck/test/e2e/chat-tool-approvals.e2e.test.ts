import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { backendVariants } from './both-backends/backend-variants.js';
import { type ChatTerminal, startChatTerminal } from './chat-terminal-harness.js';
import { runHolodeckCli } from './support/run-holodeck-cli.js';

// Which tool calls ask on the AI SDK backend (issue 25 §3): a tool's `approval: never | always`,
// else its kind (lookups unasked); a piped chat refuses what would ask, naming the setting; the
// setting is refused on Claude, where it would have no effect.

const NOTES = `
import { appendFileSync } from 'node:fs';
export const saveNote = ({ text }) => {
  appendFileSync(new URL('./notes.log', import.meta.url), text + '\\n');
  return 'saved';
};
export const lookUp = ({ id }) => 'order ' + id + ' shipped';
`;
const tool = (name: string, fn: string, extra: Record<string, unknown> = {}) => ({
  type: 'function',
  name,
  description: name,
  file: 'notes.mjs',
  function: fn,
  parameters: { type: 'object', properties: { text: { type: 'string' }, id: { type: 'string' } } },
  ...extra,
});
const ENTER = '\r';
const PROMPT = /\n> ?$/;

const aiSdk = backendVariants().find((variant) => variant.name === 'ai-sdk');
const claude = backendVariants().find((variant) => variant.name === 'claude');
if (!aiSdk || !claude) throw new Error('both backend variants are needed');

describe('tool approvals on the AI SDK backend', () => {
  const variant = aiSdk;
  let terminal: ChatTerminal | undefined;
  beforeAll(() => variant.start());
  afterAll(() => variant.close());
  afterEach(() => {
    terminal?.kill('SIGKILL');
    terminal = undefined;
    variant.discardScript();
  });

  it('a piped chat refuses a call that would ask, naming the setting; approval: never runs it', async () => {
    variant.script(
      variant.callTool('save_note', { text: 'piped' }),
      variant.respond((request) => ({ kind: 'reply', text: `told: ${request.toolResults.at(-1)?.text}` })),
    );
    const asking = variant.agent({ tools: [tool('save_note', 'saveNote')] }, { 'notes.mjs': NOTES });
    const refused = await runHolodeckCli(['chat', asking.file], asking.env, 'save it\n');
    expect(refused.code, refused.stderr).toBe(0);
    expect(refused.stdout).toContain(
      'told: save_note needs approval (a function tool asks by default; tools[0].approval: never runs it unasked) and nobody can approve it in this run (not a terminal); set tools[0].approval: never in agent.yaml to let it run unasked',
    );
    expect(() => readFileSync(path.join(asking.directory, 'notes.log'), 'utf8')).toThrow();
    variant.checkAndReset();

    variant.script(variant.callTool('save_note', { text: 'piped' }), variant.reply('Saved.'));
    const trusted = variant.agent(
      { tools: [tool('save_note', 'saveNote', { approval: 'never' })] },
      { 'notes.mjs': NOTES },
    );
    const ran = await runHolodeckCli(['chat', trusted.file], trusted.env, 'save it\n');
    expect(ran.code, ran.stderr).toBe(0);
    expect(readFileSync(path.join(trusted.directory, 'notes.log'), 'utf8')).toBe('piped\n');
    variant.checkAndReset();
  });

  it('on a terminal, a lookup (governance read, or approval: never) runs unasked; approval: always asks', async () => {
    variant.script(
      variant.callTool('look_up', { id: 'A-1' }),
      variant.callTool('save_note', { text: 'asked' }),
      variant.reply('Both done.'),
    );
    const agent = variant.agent(
      {
        tools: [
          tool('look_up', 'lookUp', { approval: 'never' }),
          tool('save_note', 'saveNote', { approval: 'always' }),
        ],
      },
      { 'notes.mjs': NOTES },
    );
    terminal = startChatTerminal([agent.file], agent.env, agent.directory);
    await terminal.waitFor(PROMPT);
    terminal.type(`look it up and save${ENTER}`);
    await terminal.waitFor('Allow?');
    // The lookup ran before; only the write asks, saying which setting made it ask.
    expect(terminal.text()).toMatch(/✓ look_up id="A-1" done/);
    expect(terminal.text()).toMatch(/\? save_note wants to run \(tools\[1\]\.approval: always\)/);
    terminal.type('y');
    await terminal.waitFor('Both done.');
    await terminal.waitFor(PROMPT);
    expect(terminal.text().match(/Allow\?/g)).toHaveLength(1);
    terminal.type(`/exit${ENTER}`);
    await terminal.exited;
    variant.checkAndReset();
  });
});

describe('tool approvals on Claude', () => {
  beforeAll(() => claude.start());
  afterAll(() => claude.close());
  it('validate refuses approval: on a tool, where claude.permission_mode decides', async () => {
    const agent = claude.agent(
      { tools: [tool('save_note', 'saveNote', { approval: 'never' })] },
      { 'notes.mjs': NOTES },
    );
    const outcome = await runHolodeckCli(['validate', agent.file], agent.env);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toMatch(
      /tools\[0\]\.approval is not used by provider anthropic: the Claude CLI asks by claude\.permission_mode, and function tools run without asking/,
    );
    expect(outcome.stderr).toContain(
      'remove it; on Claude, claude.permission_mode and claude.allowed_tools decide',
    );
  });
});

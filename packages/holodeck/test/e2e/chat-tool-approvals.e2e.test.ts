import { readFileSync } from 'node:fs';
import path from 'node:path';
import { toolUse } from '@holodeck/testkit';
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
    // Said on stderr, and the chat exits 3 (the agent could not do what it was asked).
    expect(refused.code, refused.stderr).toBe(3);
    expect(refused.stderr).toContain(
      'error: save_note was refused: it needs approval and nobody can approve it here (not a terminal).',
    );
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

describe('approvals remembered and shown (terminal chat)', () => {
  it('"[t] always for this agent" is saved: the next chat of the agent does not ask', async () => {
    await aiSdk.start();
    try {
      aiSdk.script(
        aiSdk.callTool('save_note', { text: 'one' }),
        aiSdk.reply('first done'),
        aiSdk.callTool('save_note', { text: 'two' }),
        aiSdk.reply('second done'),
      );
      const agent = aiSdk.agent({ tools: [tool('save_note', 'saveNote')] }, { 'notes.mjs': NOTES });
      let terminal = startChatTerminal([agent.file], agent.env, agent.directory);
      await terminal.waitFor(PROMPT);
      terminal.type(`note one${ENTER}`);
      await terminal.waitFor('[t] always for this agent');
      terminal.type('t');
      await terminal.waitFor('first done');
      await terminal.waitFor(PROMPT);
      expect(terminal.text()).toMatch(
        /allowed save_note always for this agent \(saved in\s+\.holodeck\/chat-approvals\.json;/,
      );
      terminal.type(`/exit${ENTER}`);
      await terminal.exited;
      expect(
        JSON.parse(readFileSync(path.join(agent.directory, '.holodeck', 'chat-approvals.json'), 'utf8')),
      ).toEqual({
        always_allowed: ['save_note'],
      });
      terminal = startChatTerminal([agent.file], agent.env, agent.directory);
      await terminal.waitFor(PROMPT);
      terminal.type(`note two${ENTER}`);
      await terminal.waitFor('second done');
      await terminal.waitFor(PROMPT);
      expect(terminal.text()).not.toContain('Allow?');
      expect(terminal.text()).toContain('save_note allowed: always allowed for this agent');
      expect(readFileSync(path.join(agent.directory, 'notes.log'), 'utf8')).toBe('one\ntwo\n');
      terminal.type(`/exit${ENTER}`);
      await terminal.exited;
      aiSdk.checkAndReset();
    } finally {
      await aiSdk.close();
    }
  });

  it('a Write over an existing file shows the diff from what the file holds now (Claude)', async () => {
    await claude.start();
    try {
      const agent = claude.agent(
        { claude: { working_directory: '.', file_system: { read: true, write: true } } },
        { 'plan.md': 'keep one\nkeep two\nold line\nkeep three\n' },
      );
      const plan = path.join(agent.directory, 'plan.md');
      // The CLI writes over a file only after reading it.
      claude.script(
        toolUse('Read', { file_path: plan }),
        toolUse('Write', {
          file_path: plan,
          content: 'keep one\nkeep two\nchanged line\nkeep three\nadded line\n',
        }),
        claude.reply('Written.'),
      );
      const terminal = startChatTerminal([agent.file], agent.env, agent.directory);
      await terminal.waitFor(PROMPT);
      terminal.type(`update the plan${ENTER}`);
      await terminal.waitFor('Allow?');
      const shown = terminal.text();
      expect(shown).toContain('replaces the existing file:');
      expect(shown).toMatch(/^ {4}keep two$/m);
      expect(shown).toMatch(/^ {2}- old line$/m);
      expect(shown).toMatch(/^ {2}\+ changed line$/m);
      expect(shown).toMatch(/^ {2}\+ added line$/m);
      // Unchanged lines are context, not additions.
      expect(shown).not.toMatch(/\+ keep one/);
      terminal.type('n');
      await terminal.waitFor('Reason (the agent is told):');
      terminal.type(`not now${ENTER}`);
      await terminal.waitFor(PROMPT);
      terminal.type(`/exit${ENTER}`);
      await terminal.exited;
      claude.discardScript();
    } finally {
      await claude.close();
    }
  });
});

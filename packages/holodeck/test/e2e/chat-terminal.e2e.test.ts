import { readFileSync } from 'node:fs';
import path from 'node:path';
import { chatReply, reply, toolUse, waitUntil } from '@holodeck/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { backendVariants } from './both-backends/backend-variants.js';
import { type ChatTerminal, startChatTerminal } from './chat-terminal-harness.js';
import { claudeProcesses, descendants, isRunning } from './support/process-tree.js';

// `holodeck chat` on a real pseudo-terminal through the real CLI, on both backends: what a user
// types (edited, pasted, interrupted, approved) and what the fake model was sent.

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

const ENTER = '\r';
const CTRL_C = '\u0003';
const CTRL_D = '\u0004';
const LEFT = '\u001b[D';
/** The empty prompt, last on the screen: the chat waits for the next message. */
const PROMPT = /\n> ?$/;

describe.each(backendVariants())('holodeck chat on a terminal ($name backend)', (variant) => {
  let terminal: ChatTerminal | undefined;
  beforeAll(() => variant.start());
  afterAll(() => variant.close());
  afterEach(async () => {
    if (terminal) {
      terminal.kill('SIGKILL');
      terminal = undefined;
    }
    variant.discardScript();
  });

  /** The side-effect tool that needs approval on this backend, and where its effect shows. */
  const approvalAgent = () =>
    variant.name === 'claude'
      ? variant.agent({ claude: { working_directory: '.', file_system: { write: true } } })
      : variant.agent({ tools: [SAVE_NOTE] }, { 'notes.mjs': NOTES });
  /** Claude's built-in Write (the variant's callTool names function tools), or the function tool. */
  const callApprovalTool = (text: string) =>
    variant.name === 'claude'
      ? toolUse('Write', { file_path: 'notes.log', content: text })
      : variant.callTool('save_note', { text });
  const slowReply = (text: string) =>
    variant.name === 'claude' ? reply(text, { delayMs: 5_000 }) : chatReply(text, { delayMs: 5_000 });

  it('sends an edited line as edited, keeps slash commands away from the model, and ends with the resume hint', async () => {
    variant.script(variant.reply('Hello **there**.'), variant.reply('Got it.'));
    const agent = variant.agent();
    terminal = startChatTerminal([agent.file], agent.env, agent.directory);
    await terminal.waitFor('/help for commands');
    await terminal.waitFor(PROMPT);
    // "helo world" → cursor left 7, insert "l" → "hello world"
    terminal.type(`helo world${LEFT.repeat(7)}l${ENTER}`);
    await terminal.waitFor('Hello there.');
    await terminal.waitFor(PROMPT);
    expect(variant.requests().at(-1)?.lastUserText).toBe('hello world');
    terminal.type(`/help${ENTER}`);
    await terminal.waitFor('/save [file]');
    terminal.type(`/frobnicate${ENTER}`);
    await terminal.waitFor('Unknown command /frobnicate. Commands:');
    terminal.type(`/usage${ENTER}`);
    await terminal.waitFor(/1 turn\(s\) · [\d,]+ in/);
    terminal.type(`/tools${ENTER}`);
    await terminal.waitFor('Offered to the agent:');
    // ↑ walks back through what was typed (commands too) to the first message, sent again.
    terminal.type(`${'\u001b[A'.repeat(5)}${ENTER}`);
    await terminal.waitFor('Got it.');
    await terminal.waitFor(PROMPT);
    expect(variant.requests().at(-1)?.lastUserText).toBe('hello world');
    const savedTo = path.join(agent.directory, 'chat.json');
    terminal.type(`/save ${savedTo}${ENTER}`);
    await terminal.waitFor('Saved 2 turn(s)');
    const saved = JSON.parse(readFileSync(savedTo, 'utf8'));
    expect(saved.turns.map((turn: { user: string }) => turn.user)).toEqual(['hello world', 'hello world']);
    terminal.type(`/save ${path.join(agent.directory, 'chat.md')}${ENTER}`);
    await terminal.waitFor(/Saved 2 turn\(s\) to .*chat\.md/);
    expect(readFileSync(path.join(agent.directory, 'chat.md'), 'utf8')).toContain(
      '## Agent\n\nHello **there**.',
    );
    terminal.type(`/exit${ENTER}`);
    const exit = await terminal.exited;
    expect(exit.exitCode).toBe(0);
    // The hint may wrap at the terminal's width: read the screen as one line.
    expect(terminal.screen().replace(/\n/g, '')).toMatch(
      /Session \S+ — resume with: holodeck chat .*agent\.yaml --resume \S+/,
    );
    // Only the two messages reached the model: no slash command did.
    expect(variant.requests().map((request) => request.lastUserText)).toEqual(['hello world', 'hello world']);
    variant.checkAndReset();
  });

  it('sends a paste as one message, and resumes the conversation after exit', async () => {
    variant.script(variant.reply('One message.'));
    const agent = variant.agent();
    terminal = startChatTerminal([agent.file], agent.env, agent.directory);
    await terminal.waitFor('/help for commands');
    await terminal.waitFor(PROMPT);
    terminal.paste('line one\nline two\nline three');
    terminal.type(ENTER);
    await terminal.waitFor('One message.');
    await terminal.waitFor(PROMPT);
    expect(variant.requests().map((request) => request.lastUserText)).toEqual([
      'line one\nline two\nline three',
    ]);
    terminal.type(CTRL_D);
    await terminal.exited;
    const sessionId = /--resume (\S+)/.exec(terminal.screen())?.[1];
    expect(sessionId).toBeDefined();
    variant.checkAndReset();

    variant.script(
      variant.respond((request) => ({
        kind: 'reply',
        text: `remembered: ${request.conversation.includes('line three')}`,
      })),
    );
    terminal = startChatTerminal([agent.file, '--resume', sessionId ?? ''], agent.env, agent.directory);
    await terminal.waitFor('/help for commands');
    await terminal.waitFor(PROMPT);
    terminal.type(`what did I say?${ENTER}`);
    await terminal.waitFor('remembered: true');
    await terminal.waitFor(PROMPT);
    // At an empty prompt the first Ctrl+C only warns (it may have been meant for the answer).
    terminal.type(CTRL_C);
    await terminal.waitFor('press Ctrl+C again to exit');
    terminal.type(CTRL_C);
    expect((await terminal.exited).exitCode).toBe(0);
    variant.checkAndReset();
  });

  it('Ctrl+C interrupts a slow reply and the same session answers the next message', async () => {
    variant.script(
      slowReply('too late'),
      variant.respond((request) => ({
        kind: 'reply',
        text: `still here after ${request.conversation.includes('tell me a long story') ? 'the story' : 'nothing'}`,
      })),
    );
    const agent = variant.agent();
    terminal = startChatTerminal([agent.file], agent.env, agent.directory);
    await terminal.waitFor('/help for commands');
    await terminal.waitFor(PROMPT);
    terminal.type(`tell me a long story${ENTER}`);
    await terminal.waitFor('thinking…');
    // Interrupt once the model holds the request (the fake answers it only after 5 s).
    await waitUntil(() => variant.requests().length > 0, {
      timeoutMs: 20_000,
      what: 'the request to reach the fake model',
    });
    const before =
      variant.name === 'claude' ? claudeProcesses(terminal.pty.pid).map((process) => process.pid) : [];
    // Typed while the turn runs: kept for the next prompt (type-ahead), not lost.
    terminal.type('are you ');
    terminal.type(CTRL_C);
    await terminal.waitFor('(interrupted)');
    await terminal.waitFor(/\n> are you $/);
    terminal.type(`there?${ENTER}`);
    await terminal.waitFor('still here after the story');
    await terminal.waitFor(PROMPT);
    // (Claude's CLI adds the interrupted message and a note before it.)
    expect(variant.requests().at(-1)?.lastUserText).toMatch(/(^|\n)are you there\?$/);
    if (variant.name === 'claude') {
      expect(before).toHaveLength(1);
      expect(claudeProcesses(terminal.pty.pid).map((process) => process.pid)).toEqual(before);
    }
    terminal.type(`/quit${ENTER}`);
    expect((await terminal.exited).exitCode).toBe(0);
  });

  it('asks before a tool call: allowed once, then denied with a reason the model receives', async () => {
    variant.script(
      callApprovalTool('first note'),
      variant.reply('Saved the first.'),
      callApprovalTool('second note'),
      variant.respond((request) => ({
        kind: 'reply',
        text: `told: ${request.toolResults.at(-1)?.text ?? 'nothing'}`,
      })),
    );
    const agent = approvalAgent();
    terminal = startChatTerminal([agent.file], agent.env, agent.directory);
    await terminal.waitFor('/help for commands');
    await terminal.waitFor(PROMPT);
    terminal.type(`save a note${ENTER}`);
    await terminal.waitFor('Allow?');
    expect(terminal.screen()).toContain('first note');
    terminal.type('y');
    await terminal.waitFor('Saved the first.');
    await terminal.waitFor(PROMPT);
    expect(readFileSync(path.join(agent.directory, 'notes.log'), 'utf8')).toContain('first note');
    terminal.type(`save another${ENTER}`);
    await terminal.waitFor(/Allow\?[\s\S]*Allow\?/);
    terminal.type('n');
    await terminal.waitFor('Reason (the agent is told):');
    terminal.type(`not today${ENTER}`);
    // The finished reply is re-rendered fitted to the terminal's width: words may wrap onto new lines.
    await terminal.waitFor(/told: [\s\S]*?not\s+today/);
    await terminal.waitFor(PROMPT);
    expect(readFileSync(path.join(agent.directory, 'notes.log'), 'utf8')).not.toContain('second note');
    terminal.type(`/exit${ENTER}`);
    await terminal.exited;
    variant.checkAndReset();
  });

  it('"allow for this session" is not asked twice', async () => {
    variant.script(
      callApprovalTool('one'),
      variant.reply('first done'),
      callApprovalTool('two'),
      variant.reply('second done'),
    );
    const agent = approvalAgent();
    terminal = startChatTerminal([agent.file], agent.env, agent.directory);
    await terminal.waitFor('/help for commands');
    await terminal.waitFor(PROMPT);
    terminal.type(`note one${ENTER}`);
    await terminal.waitFor('Allow?');
    terminal.type('a');
    await terminal.waitFor('first done');
    await terminal.waitFor(PROMPT);
    terminal.type(`note two${ENTER}`);
    await terminal.waitFor('second done');
    await terminal.waitFor(PROMPT);
    expect(terminal.screen().match(/Allow\?/g)).toHaveLength(1);
    if (variant.name === 'ai-sdk') {
      expect(readFileSync(path.join(agent.directory, 'notes.log'), 'utf8')).toBe('one\ntwo\n');
    } else {
      expect(readFileSync(path.join(agent.directory, 'notes.log'), 'utf8')).toBe('two');
    }
    terminal.type(`/exit${ENTER}`);
    await terminal.exited;
    variant.checkAndReset();
  });

  it('//text sends the literal message /text to the model (not a command of HoloDeck or the CLI)', async () => {
    variant.script(variant.reply('Literal one.'), variant.reply('Literal two.'));
    const agent = variant.agent();
    terminal = startChatTerminal([agent.file], agent.env, agent.directory);
    await terminal.waitFor('/help for commands');
    await terminal.waitFor(PROMPT);
    terminal.type(`//help me with /etc/hosts${ENTER}`);
    await terminal.waitFor('Literal one.');
    await terminal.waitFor(PROMPT);
    terminal.type(`//clear${ENTER}`);
    await terminal.waitFor('Literal two.');
    await terminal.waitFor(PROMPT);
    expect(variant.requests().map((request) => request.lastUserText)).toEqual([
      '/help me with /etc/hosts',
      '/clear',
    ]);
    // The second message went into the same conversation: `/clear` was not run as a command.
    expect(variant.requests().at(-1)?.conversation).toContain('Literal one.');
    expect(terminal.text()).not.toContain('local-command');
    terminal.type(`/exit${ENTER}`);
    expect((await terminal.exited).exitCode).toBe(0);
    variant.checkAndReset();
  });

  it.each(['SIGTERM', 'SIGHUP'])(
    '%s during a turn ends the chat cleanly with the resume hint and leaves no claude process',
    async (signal) => {
      variant.script(variant.reply('hi'), slowReply('never shown'));
      const agent = variant.agent();
      terminal = startChatTerminal([agent.file], agent.env, agent.directory);
      await terminal.waitFor('/help for commands');
      await terminal.waitFor(PROMPT);
      terminal.type(`hello${ENTER}`);
      await terminal.waitFor(/^hi$/m);
      await terminal.waitFor(PROMPT);
      terminal.type(`tell me a long story${ENTER}`);
      await terminal.waitFor('thinking…');
      await waitUntil(() => variant.requests().length >= 2, {
        timeoutMs: 20_000,
        what: 'the slow request to reach the fake model',
      });
      // Every process holodeck started (the claude CLI and what it runs), counted from /proc.
      const children = descendants(terminal.pty.pid);
      if (variant.name === 'claude') expect(claudeProcesses(terminal.pty.pid)).toHaveLength(1);
      terminal.kill(signal);
      const exit = await terminal.exited;
      expect(exit.exitCode).toBe(130);
      expect(terminal.text()).toMatch(/--resume \S+/);
      expect(terminal.text()).not.toContain('never shown');
      expect(children.filter((child) => isRunning(child.pid))).toEqual([]);
      variant.discardScript();
    },
  );
});

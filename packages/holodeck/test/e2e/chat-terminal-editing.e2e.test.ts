import { chmodSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chatReply, reply } from '@holodeck/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { backendVariants } from './both-backends/backend-variants.js';
import { type ChatTerminal, startChatTerminal } from './chat-terminal-harness.js';

// The terminal chat as people type in it (issue 25 §3), in a real pseudo-terminal through the real
// CLI: Ctrl+C twice to leave, Esc to interrupt, word movement, history search, Tab completion, the
// external editor, and text wrapped at word boundaries at 40 and 100 columns.

const ENTER = '\r';
const CTRL_C = '\u0003';
const ESC = '\u001b';
const ctrl = (letter: string) => String.fromCharCode(letter.charCodeAt(0) - 96);
const PROMPT = /\n> ?$/;

const NOTES = `
export const saveNote = ({ text }) => 'saved ' + text.length + ' characters';
`;
const SAVE_NOTE = {
  type: 'function',
  name: 'save_note',
  description: 'Saves a note',
  file: 'notes.mjs',
  function: 'saveNote',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};

/** The screen held no row the terminal wrapped itself: every line break was the chat's, at a word. */
function wrappedByTheChat(terminal: ChatTerminal): void {
  expect(terminal.text()).toBe(terminal.screen());
}

describe.each(backendVariants())('the terminal chat, keys ($name backend)', (variant) => {
  let terminal: ChatTerminal | undefined;
  beforeAll(() => variant.start());
  afterAll(() => variant.close());
  afterEach(() => {
    terminal?.kill('SIGKILL');
    terminal = undefined;
    variant.discardScript();
  });

  it('Esc interrupts a running answer; Ctrl+C after an answer only warns, a second one exits', async () => {
    variant.script(
      variant.name === 'claude'
        ? reply('too late', { delayMs: 5_000 })
        : chatReply('too late', { delayMs: 5_000 }),
      variant.reply('Finished.'),
    );
    const agent = variant.agent();
    terminal = startChatTerminal([agent.file], agent.env, agent.directory);
    await terminal.waitFor(PROMPT);
    terminal.type(`tell me a long story${ENTER}`);
    await terminal.waitFor('thinking…');
    while (variant.requests().length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    terminal.type(ESC);
    await terminal.waitFor('(interrupted)');
    await terminal.waitFor(PROMPT);
    expect(terminal.text()).not.toContain('too late');
    terminal.type(`and now?${ENTER}`);
    await terminal.waitFor('Finished.');
    await terminal.waitFor(PROMPT);
    // A Ctrl+C meant for the answer that has just finished does not end the chat.
    terminal.type(CTRL_C);
    await terminal.waitFor('press Ctrl+C again to exit');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(terminal.text()).not.toContain('resume with');
    terminal.type(CTRL_C);
    expect((await terminal.exited).exitCode).toBe(0);
    expect(terminal.text()).toMatch(/resume with: .*--resume \S+/s);
  });
});

describe('the terminal chat, editing and layout (ai-sdk backend)', () => {
  const variant = backendVariants().find((candidate) => candidate.name === 'ai-sdk');
  if (!variant) throw new Error('no ai-sdk variant');
  let terminal: ChatTerminal | undefined;
  beforeAll(() => variant.start());
  afterAll(() => variant.close());
  afterEach(() => {
    terminal?.kill('SIGKILL');
    terminal = undefined;
    variant.discardScript();
  });

  it('moves by words, searches the history with Ctrl+R and completes /commands with Tab', async () => {
    variant.script(variant.reply('one'), variant.reply('two'), variant.reply('three'));
    const agent = variant.agent();
    terminal = startChatTerminal([agent.file], agent.env, agent.directory);
    await terminal.waitFor(PROMPT);
    // Alt+B twice: before "green"; Ctrl+→: after "green".
    terminal.type(`paint it green now${ESC}b${ESC}b${'\u001b[1;5C'} and blue${ENTER}`);
    await terminal.waitFor(/^one$/m);
    await terminal.waitFor(PROMPT);
    expect(variant.requests().at(-1)?.lastUserText).toBe('paint it green and blue now');
    terminal.type(`deploy the docs${ENTER}`);
    await terminal.waitFor(/^two$/m);
    await terminal.waitFor(PROMPT);
    terminal.type(`${ctrl('r')}paint`);
    await terminal.waitFor('(history search) paint: paint it green and blue now');
    terminal.type(ENTER);
    await terminal.waitFor(/^three$/m);
    await terminal.waitFor(PROMPT);
    expect(variant.requests().at(-1)?.lastUserText).toBe('paint it green and blue now');
    terminal.type('/he\t');
    await terminal.waitFor(/\n> \/help $/);
    terminal.type(ENTER);
    await terminal.waitFor('Ctrl+R searches it');
    terminal.type('/exit');
    terminal.type(ENTER);
    expect((await terminal.exited).exitCode).toBe(0);
    expect(variant.requests()).toHaveLength(3);
    variant.checkAndReset();
  });

  it('Ctrl+G opens the message in $EDITOR and what was saved is sent after Enter', async () => {
    variant.script(
      variant.respond((request) => ({ kind: 'reply', text: `got ${request.lastUserText.length} chars` })),
    );
    const agent = variant.agent();
    const editor = path.join(agent.directory, 'fake-editor.sh');
    // An editor that appends a second paragraph to what it was given, as a user would type it.
    writeFileSync(editor, '#!/bin/sh\nprintf "\\n\\nsecond paragraph from the editor\\n" >> "$1"\n');
    chmodSync(editor, 0o755);
    terminal = startChatTerminal([agent.file], { ...agent.env, EDITOR: editor, VISUAL: '' }, agent.directory);
    await terminal.waitFor(PROMPT);
    terminal.type(`first paragraph${ctrl('g')}`);
    await terminal.waitFor('… second paragraph from the editor');
    terminal.type(ENTER);
    await terminal.waitFor(/got \d+ chars/);
    expect(variant.requests().at(-1)?.lastUserText).toBe(
      'first paragraph\n\nsecond paragraph from the editor',
    );
    await terminal.waitFor(PROMPT);
    terminal.type(`/exit${ENTER}`);
    await terminal.exited;
    variant.checkAndReset();
  });

  it.each([40, 100])(
    'at %i columns /help, the approval and the answer wrap at word boundaries; the answer to the approval has its own line',
    async (cols) => {
      const long =
        'The note is saved in the shared notebook under the heading you asked for, and the index at the top of the notebook now lists it with today’s date.';
      variant.script(
        variant.callTool('save_note', {
          text: 'a note long enough that its approval prompt cannot fit on one narrow terminal row',
        }),
        variant.reply(`${long}\n\n| tool | result |\n| :--- | ---: |\n| save_note | 82 |`),
      );
      const agent = variant.agent({ tools: [SAVE_NOTE] }, { 'notes.mjs': NOTES });
      terminal = startChatTerminal([agent.file], agent.env, agent.directory, { cols });
      await terminal.waitFor(PROMPT);
      terminal.type(`/help${ENTER}`);
      await terminal.waitFor('//text sends a message');
      await terminal.waitFor(PROMPT);
      terminal.type(`save a note${ENTER}`);
      await terminal.waitFor(/Allow\?[\s\S]*interrupts/);
      terminal.type('y');
      await terminal.waitFor(/^allowed once$/m);
      await terminal.waitFor('save_note │');
      await terminal.waitFor(PROMPT);
      wrappedByTheChat(terminal);
      const screen = terminal.screen();
      expect(screen.replace(/\s+/g, ' ')).toContain(long);
      for (const line of screen.split('\n')) expect(line.length).toBeLessThan(cols);
      // The number column is right-aligned, as the markdown asked.
      expect(screen).toMatch(/│ save_note │ +82 │/);
      terminal.type(`/exit${ENTER}`);
      await terminal.exited;
      variant.checkAndReset();
    },
  );
});

describe.each(backendVariants())('the terminal chat recorded ($name backend)', (variant) => {
  let terminal: ChatTerminal | undefined;
  beforeAll(() => variant.start());
  afterAll(() => variant.close());
  afterEach(() => {
    terminal?.kill('SIGKILL');
    terminal = undefined;
    variant.discardScript();
  });

  it('--record, then --replay with the model gone: the same answers, turn by turn; a changed turn names its turn', async () => {
    variant.script(
      ...Array.from({ length: 6 }, () =>
        variant.respond((request) => ({ kind: 'reply', text: `you said: ${request.lastUserText}` })),
      ),
    );
    const agent = variant.agent();
    const converse = async (extra: string[], second: string, answer: string | RegExp) => {
      terminal = startChatTerminal([agent.file, ...extra], agent.env, agent.directory);
      await terminal.waitFor(PROMPT);
      terminal.type(`first${ENTER}`);
      await terminal.waitFor('you said: first');
      await terminal.waitFor(PROMPT);
      terminal.type(`${second}${ENTER}`);
      await terminal.waitFor(answer);
      await terminal.waitFor(PROMPT);
      terminal.type(`/exit${ENTER}`);
      return (await terminal.exited).exitCode;
    };
    expect(await converse(['--record'], 'second', 'you said: second')).toBe(0);
    expect(readdirSync(path.join(agent.directory, '.holodeck', 'recordings'))).toEqual([
      expect.stringMatching(/^chat\.[0-9a-f]{8}\.json$/),
    ]);
    await variant.close();
    try {
      expect(await converse(['--replay'], 'second', 'you said: second')).toBe(0);
      expect(
        await converse(
          ['--replay'],
          'third',
          /no\s+recording\s+for\s+chat\s+attempt\s+1\s+turn\s+2\s+request\s+\d+:\s+differs/,
        ),
      ).toBe(0);
    } finally {
      await variant.start();
    }
  });
});

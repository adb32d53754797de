import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { backendVariants } from './both-backends/backend-variants.js';
import { type ChatTerminal, startChatTerminal } from './chat-terminal-harness.js';
import { postJson, startServe } from './serve/serve-harness.js';
import { elicitationServerFile, elicitationServerTool } from './support/elicitation-server.js';
import { runHolodeckCli } from './support/run-holodeck-cli.js';

// MCP elicitation (issue 25 §4): an MCP server asks the user for input during a tool call. The
// terminal chat asks (form fields validated, accept / decline / cancel); piped chat and `chat -p`
// decline, saying so; on both backends alike.

const ENTER = '\r';
const ESC = '\u001b';
const PROMPT = /\n> ?$/;
const serverFile = elicitationServerFile();

for (const variant of backendVariants()) {
  describe(`MCP elicitation on ${variant.name}`, () => {
    let terminal: ChatTerminal | undefined;
    beforeAll(() => variant.start());
    afterAll(() => variant.close());
    afterEach(() => {
      terminal?.kill('SIGKILL');
      terminal = undefined;
      variant.discardScript();
    });
    const agent = () =>
      variant.agent({
        // The AI SDK asks before an MCP call by default; elicitation is what this test is about.
        tools: [
          {
            ...elicitationServerTool(serverFile),
            ...(variant.name === 'ai-sdk' ? { approval: 'never' } : {}),
          },
        ],
        ...variant.mcpConfig([
          'mcp__bookings__book_table',
          'mcp__bookings__ship_parcel',
          'mcp__bookings__nest_form',
        ]),
      });
    const toldModel = variant.respond((request) => ({
      kind: 'reply',
      text: `tool said: ${request.toolResults.at(-1)?.text}`,
    }));

    it('a piped chat and chat -p decline, and say so', async () => {
      variant.script(variant.callTool('mcp__bookings__book_table', {}), toldModel);
      const piped = agent();
      const outcome = await runHolodeckCli(['chat', piped.file], piped.env, 'book a table\n');
      expect(outcome.code, outcome.stderr).toBe(0);
      expect(outcome.stdout).toContain('tool said: the user answered decline');
      // The server's escape sequence is dropped; the line says where it could be answered.
      expect(outcome.stderr).toContain(
        'MCP server "bookings" asked: How many guests, and when? — declined: nobody can answer it in this run; `holodeck chat` on a terminal asks you',
      );
      expect(outcome.stderr).not.toContain('pwned');
      variant.checkAndReset();

      variant.script(variant.callTool('mcp__bookings__book_table', {}), toldModel);
      const oneShot = await runHolodeckCli(['chat', piped.file, '-p', 'book a table'], piped.env);
      expect(oneShot.code, oneShot.stderr).toBe(0);
      expect(oneShot.stdout).toContain('tool said: the user answered decline');
      expect(oneShot.stderr).toContain(
        'MCP server "bookings" asked: How many guests, and when? — declined: nobody can answer it in this run',
      );
      expect(oneShot.stderr).not.toContain('pwned');
      variant.checkAndReset();

      // A request outside the MCP spec is refused by the MCP client as invalid, on both backends.
      variant.script(variant.callTool('mcp__bookings__nest_form', {}), toldModel);
      const invalid = await runHolodeckCli(['chat', piped.file, '-p', 'ship it'], piped.env);
      expect(invalid.stdout).toMatch(
        /tool said: elicitation failed: MCP error -32602:( MCP error -32602:)? Invalid elicitation request:/,
      );
      variant.checkAndReset();
    });

    it('holodeck serve declines (nobody at the server can answer)', async () => {
      variant.script(variant.callTool('mcp__bookings__book_table', {}), toldModel);
      const served = await startServe(agent());
      try {
        const created = await postJson(`${served.url}/v1/sessions`, {});
        const { id } = (await created.json()) as { id: string };
        const turn = await postJson(`${served.url}/v1/sessions/${id}/messages`, { message: 'book a table' });
        expect(await turn.json()).toMatchObject({
          status: 'completed',
          response: 'tool said: the user answered decline',
        });
      } finally {
        await served.stop();
      }
      variant.checkAndReset();
    });

    it('the terminal chat asks the form, checks each answer, and sends it', async () => {
      variant.script(variant.callTool('mcp__bookings__book_table', {}), toldModel);
      const chat = agent();
      terminal = startChatTerminal([chat.file], chat.env, chat.directory);
      await terminal.waitFor(PROMPT);
      terminal.type(`book a table${ENTER}`);
      await terminal.waitFor('Answer?');
      const asked = terminal.text();
      expect(asked).toContain('? MCP server bookings asks: How many guests, and when?');
      expect(asked).not.toContain('pwned');
      expect(asked).toContain('Guests (whole number, 1–12, required)');
      expect(asked).toContain('Date (date YYYY-MM-DD, required)');
      expect(asked).toMatch(
        /Seating \(a number or a value, optional: Enter skips\)\n\s+1\. inside\n\s+2\. terrace/,
      );
      terminal.type(`y${ENTER}`);
      await terminal.waitFor(/Guests: $/);
      terminal.type(`many${ENTER}`);
      await terminal.waitFor(
        '✗ Guests must be a whole number (got "many"); try again (Ctrl+C or Esc cancels)',
      );
      terminal.type(`40${ENTER}`);
      await terminal.waitFor('✗ Guests must be at most 12 (got 40); try again');
      terminal.type(`4${ENTER}`);
      await terminal.waitFor(/Date: $/);
      terminal.type(`24/12/2026${ENTER}`);
      await terminal.waitFor('✗ Date must be a date as YYYY-MM-DD; try again');
      terminal.type(`2026-12-24${ENTER}`);
      await terminal.waitFor(/Seating: $/);
      terminal.type(`2${ENTER}`);
      await terminal.waitFor('tool said: booked: {"guests":4,"date":"2026-12-24","seating":"terrace"}');
      // The record names the fields answered, never their values.
      expect(terminal.text()).toContain('✓ MCP server "bookings": answered (guests, date, seating)');
      await terminal.waitFor(PROMPT);
      terminal.type(`/exit${ENTER}`);
      await terminal.exited;
      variant.checkAndReset();
    });

    it('n declines, Esc cancels, and a form no terminal can show is declined saying why', async () => {
      variant.script(
        variant.callTool('mcp__bookings__book_table', {}),
        toldModel,
        variant.callTool('mcp__bookings__book_table', {}),
        toldModel,
        variant.callTool('mcp__bookings__ship_parcel', {}),
        toldModel,
      );
      const chat = agent();
      terminal = startChatTerminal([chat.file], chat.env, chat.directory);
      await terminal.waitFor(PROMPT);
      terminal.type(`book${ENTER}`);
      await terminal.waitFor('Answer?');
      terminal.type(`n${ENTER}`);
      await terminal.waitFor('tool said: the user answered decline');
      await terminal.waitFor(PROMPT);
      terminal.type(`book again${ENTER}`);
      await terminal.waitFor(/> book again\n[\s\S]*Answer\?/);
      terminal.type(`y${ENTER}`);
      await terminal.waitFor(/Guests: $/);
      terminal.type(ESC);
      await terminal.waitFor('tool said: the user answered cancel');
      expect(terminal.text()).toContain('MCP server "bookings": cancelled');
      await terminal.waitFor(PROMPT);
      terminal.type(`ship it${ENTER}`);
      await terminal.waitFor(/> ship it\n[\s\S]*tool said: /);
      // Word-wrapped at the terminal's width.
      expect(terminal.text().replace(/\s+/g, ' ')).toContain(
        '⊘ MCP server bookings asked for a form the chat cannot show: the form requires "postcode", which it does not describe. Declined; the server is told so.',
      );
      expect(terminal.text()).toContain('tool said: the user answered decline\n');
      await terminal.waitFor(PROMPT);
      terminal.type(`/exit${ENTER}`);
      await terminal.exited;
      variant.checkAndReset();
    });
  });
}

import { lastUserText, reply } from '@holodeck/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { type ChatTerminal, startChatTerminal } from './chat-terminal-harness.js';
import { createE2eAgent } from './support/e2e-agent.js';
import { runHolodeckCli } from './support/run-holodeck-cli.js';
import { useFakeModel } from './support/use-fake-model.js';

// Piped chat answers the chat's own commands itself; chat -p on a terminal neutralises the
// model's escape sequences; --resume of an unknown session stops before a process starts.
const fake = useFakeModel();
let terminal: ChatTerminal | undefined;
afterEach(() => {
  terminal?.kill('SIGKILL');
  terminal = undefined;
});

describe('holodeck chat on piped stdin', () => {
  it('/help, /clear, /tools and /usage are answered locally, never sent to the model', async () => {
    fake().script(reply('Hello.', { usage: { input_tokens: 1_000, output_tokens: 100 } }), reply('Fresh.'));
    const agent = createE2eAgent(fake().url);
    const outcome = await runHolodeckCli(
      ['chat', agent.file],
      agent.env,
      'hi\n/help\n/tools\n/usage\n/clear\n//literal slash\n/exit\n',
    );
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout).toBe('Hello.\nFresh.\n');
    expect(outcome.stderr).toContain('/save [file]');
    expect(outcome.stderr).toContain('Offered to the agent:');
    expect(outcome.stderr).toContain('1 turn(s) · 1,000 in / 100 out tokens (0 from cache) · $0.0045');
    expect(outcome.stderr).toContain('New conversation: the agent remembers nothing of the last one.');
    // Only the two messages reached the model; //text sent "/text".
    const sent = fake().requests.map((request) => lastUserText(request));
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatch(/hi$/);
    expect(sent[1]).toMatch(/\/literal slash$/);
    for (const command of ['/help', '/tools', '/usage']) expect(sent.join('\n')).not.toContain(command);
  });
});

describe('holodeck chat -p', () => {
  it('on a terminal, the answer’s escape sequences are neutralised', async () => {
    fake().script(reply('\u001b[2J\u001b]0;pwned\u0007Plain answer'));
    const agent = createE2eAgent(fake().url);
    terminal = startChatTerminal([agent.file, '-p', 'hi'], agent.env, agent.directory);
    expect((await terminal.exited).exitCode).toBe(0);
    expect(terminal.text()).toContain('Plain answer');
    // Written through a pipe, the same answer stays as the model sent it.
    fake().script(reply('\u001b[1mbold\u001b[0m'));
    const piped = await runHolodeckCli(['chat', agent.file, '-p', 'hi'], agent.env);
    expect(piped.stdout).toBe('\u001b[1mbold\u001b[0m\n');
  });

  it('--resume of a session that was never saved exits 2 with "no saved session"', async () => {
    const agent = createE2eAgent(fake().url);
    const id = '00000000-0000-4000-8000-000000000000';
    const outcome = await runHolodeckCli(['chat', agent.file, '-p', 'hi', '--resume', id], agent.env);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain(`error --resume: no saved session "${id}" for this agent`);
    expect(fake().requests).toHaveLength(0);
  });
});

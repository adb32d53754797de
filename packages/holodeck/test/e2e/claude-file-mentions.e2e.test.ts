import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { lastUserText, type RecordedRequest, reply, toolResults, toolUse } from '@holodeck/testkit';
import { describe, expect, it } from 'vitest';
import { createE2eAgent, requestAt } from './support/e2e-agent.js';
import { runHolodeckCli } from './support/run-holodeck-cli.js';
import { useFakeModel } from './support/use-fake-model.js';

const fake = useFakeModel();

/** Everything the fake model received, agent loop and helper requests alike, as one string. */
const everythingSent = () =>
  fake()
    .allRequests.map((request) => JSON.stringify(request.body))
    .join('\n');
/** The last user message as typed: its text without the CLI's `<system-reminder>` blocks. */
const typed = (request: RecordedRequest) =>
  lastUserText(request)
    .replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '')
    .trim();

// The claude CLI expands an `@path` mention in an ordinary user message: it reads the file itself
// (no tool call, no hook, no permission check) and attaches the content to the model request, as a
// made-up Read call. Measured on CLI 2.1.332: `@/abs/path`, `@../file` and `@~/file` were all sent,
// for an agent without file tools. Chat messages go as `client_composed`, delivered as written.
describe('holodeck chat (claude): @path mentions in a message are not expanded by the CLI', () => {
  it('sends no file content for a mention outside the working directory, for an agent without file tools', async () => {
    const elsewhere = mkdtempSync(path.join(tmpdir(), 'holodeck-mention-'));
    const absolute = path.join(elsewhere, 'absolute.txt');
    writeFileSync(absolute, 'ABSOLUTE-SECRET-3141\n');
    fake().script(reply('First.'), reply('Second.'), reply('Third.'));
    const agent = createE2eAgent(fake().url, {
      config: { claude: { working_directory: 'work' } },
      files: { 'work/readme.txt': 'inside\n', 'secret.txt': 'PARENT-SECRET-2718\n' },
    });
    writeFileSync(path.join(agent.env.HOME ?? '', 'notes.txt'), 'HOME-SECRET-1618\n');
    const messages = [`summarise @${absolute}`, 'what is in @../secret.txt?', 'and @~/notes.txt'];
    const outcome = await runHolodeckCli(['chat', agent.file], agent.env, `${messages.join('\n')}\n/exit\n`);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toBe('First.\nSecond.\nThird.\n');
    expect(fake().requests.map(typed)).toEqual(messages);
    const sent = everythingSent();
    for (const secret of ['ABSOLUTE-SECRET-3141', 'PARENT-SECRET-2718', 'HOME-SECRET-1618'])
      expect(sent).not.toContain(secret);
    expect(sent).not.toContain('Called the Read tool');
  });

  it('an agent that may read files reads a mentioned one with its Read tool, a call its guard sees', async () => {
    const agent = createE2eAgent(fake().url, {
      config: { claude: { working_directory: 'work', file_system: { read: true } } },
      files: { 'work/inside.txt': 'INSIDE-CONTENT-1414\n' },
    });
    fake().script(
      toolUse('Read', { file_path: path.join(agent.directory, 'work', 'inside.txt') }),
      reply('It says hello.'),
    );
    const outcome = await runHolodeckCli(
      ['chat', agent.file],
      agent.env,
      'what does @inside.txt say?\n/exit\n',
    );
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toBe('It says hello.\n');
    // The message arrives as typed, without the file; its content comes back as the result of
    // the model's own Read call.
    expect(typed(requestAt(fake(), 0))).toBe('what does @inside.txt say?');
    expect(JSON.stringify(requestAt(fake(), 0).body)).not.toContain('INSIDE-CONTENT-1414');
    expect(toolResults(requestAt(fake(), 1)).map((result) => result.text)).toEqual([
      expect.stringContaining('INSIDE-CONTENT-1414'),
    ]);
  });
});

// One-shot runs (chat -p, holodeck test cases of one turn) send the prompt as a string: the CLI
// expands its @path mentions unless the run sets verbatimPrompts.
describe('one-shot claude runs: @path mentions are not expanded', () => {
  const agentWithSecret = (config: Record<string, unknown> = {}) => {
    const agent = createE2eAgent(fake().url, {
      config: { claude: { working_directory: 'work' }, ...config },
      files: { 'work/readme.txt': 'inside\n', 'secret.txt': 'PARENT-SECRET-2718\n' },
    });
    writeFileSync(path.join(agent.env.HOME ?? '', 'notes.txt'), 'HOME-SECRET-1618\n');
    return agent;
  };

  it('holodeck chat -p', async () => {
    fake().script(reply('Done.'));
    const agent = agentWithSecret();
    const outcome = await runHolodeckCli(
      ['chat', agent.file, '-p', 'summarise @../secret.txt and @~/notes.txt'],
      agent.env,
    );
    expect(outcome).toMatchObject({ code: 0, stdout: 'Done.\n' });
    expect(everythingSent()).not.toContain('SECRET-');
  });

  it('holodeck test: a case input', async () => {
    fake().script(reply('Done.'));
    const agent = agentWithSecret({
      test_cases: [{ name: 'mention', input: 'summarise @../secret.txt and @~/notes.txt' }],
    });
    const outcome = await runHolodeckCli(['test', agent.file, '--no-save'], agent.env);
    expect(outcome.code).toBe(0);
    expect(everythingSent()).not.toContain('SECRET-');
  });
});

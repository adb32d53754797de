import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { waitUntil } from '@holodeck/testkit';
import { spawn as spawnPty } from '@lydell/node-pty';
import xterm from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { HOLODECK_BIN, runHolodeckCli } from '../support/run-holodeck-cli.js';

const env = () => {
  const home = mkdtempSync(path.join(tmpdir(), 'holodeck-init-home-'));
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, ANTHROPIC_API_KEY: 'sk-x' };
};
const freshRoot = () => mkdtempSync(path.join(tmpdir(), 'holodeck-init-cli-'));

/** `holodeck init` in a real pseudo-terminal, the screen as a terminal shows it. */
function startInitTerminal(args: string[], cwd: string, environment: Record<string, string>) {
  const terminal = new xterm.Terminal({ cols: 100, rows: 40, allowProposedApi: true });
  const pty = spawnPty(process.execPath, [HOLODECK_BIN, 'init', ...args], {
    name: 'xterm-256color',
    cols: 100,
    rows: 40,
    cwd,
    env: { TERM: 'xterm-256color', NO_COLOR: '1', ...environment },
  });
  pty.onData((data) => terminal.write(data));
  const exited = new Promise<number>((resolve) => pty.onExit(({ exitCode }) => resolve(exitCode)));
  const screen = () => {
    const rows: string[] = [];
    const buffer = terminal.buffer.active;
    for (let index = 0; index < buffer.length; index++)
      rows.push(buffer.getLine(index)?.translateToString(true) ?? '');
    return rows.join('\n');
  };
  return {
    screen,
    type: (text: string) => pty.write(text),
    async waitFor(text: string, timeoutMs = 15_000) {
      await waitUntil(() => screen().includes(text), {
        timeoutMs,
        what: `the screen to show ${JSON.stringify(text)}`,
      }).catch((error: Error) => {
        throw new Error(`${error.message}:\n${screen()}`);
      });
    },
    async exitCode(timeoutMs = 20_000) {
      return Promise.race([
        exited,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`holodeck init did not exit:\n${screen()}`)), timeoutMs).unref(),
        ),
      ]);
    },
  };
}

describe('holodeck init on a terminal asks for what the flags leave out', () => {
  it('asks folder, template, name and provider; writes and validates the agent', async () => {
    const root = freshRoot();
    const terminal = startInitTerminal([], root, env());
    await terminal.waitFor('Folder for the agent (.):');
    terminal.type('support\r');
    await terminal.waitFor('Choose a number or a name (conversational):');
    expect(terminal.screen()).toMatch(/ 2\) customer-support +order lookups and refunds/);
    terminal.type('9\r');
    await terminal.waitFor('"9" is not one of them: type 1 to 6, or a name');
    terminal.type('2\r');
    await terminal.waitFor('Agent name (support):');
    terminal.type('1st bot\r');
    await terminal.waitFor('"1st bot" is not an agent name');
    terminal.type('help-desk\r');
    await terminal.waitFor('Model provider:');
    terminal.type('openai\r');
    expect(await terminal.exitCode()).toBe(0);
    // The pty's last bytes may reach the headless screen after the exit: wait for them.
    await terminal.waitFor('support/agent.yaml is valid');
    expect(terminal.screen()).toContain(
      'Created agent "help-desk" in support/ from the customer-support template:',
    );
    const yaml = readFileSync(path.join(root, 'support', 'agent.yaml'), 'utf8');
    expect(yaml).toMatch(/^name: help-desk /m);
    expect(yaml).toMatch(/^ {2}provider: openai /m);
    expect(yaml).toContain('governance:');
  });

  it('Enter takes every default; a provider template asks no provider', async () => {
    const root = freshRoot();
    const terminal = startInitTerminal(['--template', 'ollama'], root, env());
    await terminal.waitFor('Folder for the agent (.):');
    terminal.type('\r');
    await terminal.waitFor(`Agent name (${path.basename(root).toLowerCase()}):`);
    terminal.type('\r');
    expect(await terminal.exitCode()).toBe(0);
    await terminal.waitFor('agent.yaml is valid');
    expect(terminal.screen()).not.toContain('Model provider:');
    expect(readFileSync(path.join(root, 'agent.yaml'), 'utf8')).toMatch(/^ {2}provider: ollama /m);
  });

  it('Ctrl+C at a question stops with 130 and writes nothing', async () => {
    const root = freshRoot();
    const terminal = startInitTerminal([], root, env());
    await terminal.waitFor('Folder for the agent (.):');
    terminal.type('\u0003');
    expect(await terminal.exitCode()).toBe(130);
    await terminal.waitFor('holodeck init was stopped: nothing was written');
    expect(readdirSync(root)).toEqual([]);
  });

  it('--yes asks nothing on a terminal', async () => {
    const root = freshRoot();
    const terminal = startInitTerminal(['agent-one', '--yes'], root, env());
    expect(await terminal.exitCode()).toBe(0);
    await terminal.waitFor('agent-one/agent.yaml is valid');
    expect(terminal.screen()).not.toContain('Choose');
    expect(readFileSync(path.join(root, 'agent-one', 'agent.yaml'), 'utf8')).toMatch(/^name: agent-one /m);
  });
});

describe('holodeck init with flags (piped)', () => {
  it('--list names every template', async () => {
    const outcome = await runHolodeckCli(['init', '--list'], env());
    expect(outcome.code).toBe(0);
    expect(outcome.stdout.split('\n').map((line) => line.split(' ')[0])).toEqual([
      'conversational',
      'customer-support',
      'docs-assistant',
      'openai',
      'azure_openai',
      'ollama',
      '',
    ]);
  });

  it('without --template (and not on a terminal) it asks for the flag and writes nothing (exit 2)', async () => {
    const root = freshRoot();
    const outcome = await runHolodeckCli(['init', path.join(root, 'a')], env());
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toBe(
      'error --template: is needed when holodeck init does not run on a terminal (nothing was asked, nothing was written)\n    hint: holodeck init my-agent --template conversational; --yes takes the defaults; holodeck init --list shows the templates\n',
    );
    expect(existsSync(path.join(root, 'a'))).toBe(false);
  });

  it('never overwrites a file: it names every existing one, writes nothing and exits 2', async () => {
    const root = freshRoot();
    const folder = path.join(root, 'agent');
    mkdirSync(folder);
    writeFileSync(path.join(folder, 'agent.yaml'), 'mine\n');
    writeFileSync(path.join(folder, '.gitignore'), 'node_modules\n');
    const outcome = await runHolodeckCli(['init', folder, '--template', 'conversational'], env());
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toBe(
      `error init: ${folder}/agent.yaml, ${folder}/.gitignore already exist: holodeck init never overwrites a file, and wrote nothing\n    hint: pick another folder (holodeck init my-agent), or move those files away first\n`,
    );
    expect(readdirSync(folder).sort()).toEqual(['.gitignore', 'agent.yaml']);
    expect(readFileSync(path.join(folder, 'agent.yaml'), 'utf8')).toBe('mine\n');
  });

  it.each([
    [
      ['--template', 'conversationl'],
      'error --template: there is no template "conversationl"; did you mean "conversational"?\n    hint: one of conversational, customer-support, docs-assistant, openai, azure_openai, ollama (holodeck init --list describes them)',
    ],
    [
      ['--template', 'ollama', '--provider', 'openai'],
      'error --provider: the ollama template is for provider ollama, not openai\n    hint: use --template conversational --provider openai, or leave --provider out',
    ],
    [
      ['--template', 'conversational', '--name', '1-bot'],
      'error --name: "1-bot" is not an agent name: it must start with a letter and hold only letters, digits and "-" (at most 100)\n    hint: for example --name bot',
    ],
    [
      ['--from-promptfoo', 'x.yaml', '--template', 'openai'],
      'error --from-promptfoo: takes the model from the promptfoo providers: leave out --template and --provider',
    ],
  ])('%j is refused with a message', async (flags, message) => {
    const root = freshRoot();
    const outcome = await runHolodeckCli(['init', path.join(root, 'a'), ...flags], env());
    expect(outcome.code).toBe(2);
    expect(outcome.stderr.startsWith(message)).toBe(true);
    expect(existsSync(path.join(root, 'a'))).toBe(false);
  });

  it('writes the JSON Schema `holodeck schema` prints, named by agent.yaml for editors', async () => {
    const root = freshRoot();
    const outcome = await runHolodeckCli(
      ['init', root, '--template', 'conversational', '--name', 'clock'],
      env(),
    );
    expect(outcome.code).toBe(0);
    const schema = await runHolodeckCli(['schema'], env());
    expect(readFileSync(path.join(root, 'agent.schema.json'), 'utf8')).toBe(schema.stdout);
    expect(readFileSync(path.join(root, 'agent.yaml'), 'utf8')).toMatch(
      /^# yaml-language-server: \$schema=\.\/agent\.schema\.json\n/,
    );
    expect(readFileSync(path.join(root, '.env.example'), 'utf8')).toContain('ANTHROPIC_API_KEY=');
  });
});

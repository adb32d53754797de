import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { CommandContext } from '../../../src/cli/command-context.js';
import { registerTestCommand } from '../../../src/cli/commands/test-command.js';
import { createStyle } from '../../../src/cli/terminal-style.js';

/** `holodeck test --help` as commander prints it, wide enough that no line wraps. */
function testHelp(): { help: string; option: (flag: string) => string | undefined } {
  const context: CommandContext = {
    style: createStyle(process.stderr),
    run: () => {},
    interruptible: () => new AbortController().signal,
  };
  const program = new Command('holodeck').configureOutput({ getOutHelpWidth: () => 400 });
  registerTestCommand(program, context);
  const test = program.commands.find((command) => command.name() === 'test');
  if (!test) throw new Error('no test command');
  return {
    help: test.helpInformation(),
    option: (flag) => test.options.find((option) => option.long === flag)?.description,
  };
}

describe('holodeck test --help', () => {
  it('describes the isolation levels of both backends: claude processes, and in-process runs', () => {
    const { help, option } = testHelp();
    expect(option('--isolation')).toBe(
      'process: a fresh agent session per case; session: sessions reused, a new conversation per case (Claude: a session is a claude process, cleared with /clear; openai, azure_openai, ollama run in-process)',
    );
    expect(help).toContain(`${option('--isolation')} (default: "process")`);
  });

  it('says --max-processes is for Claude only', () => {
    const { help, option } = testHelp();
    expect(option('--max-processes')).toBe(
      'Claude only: most claude processes alive at once, pre-warmed spares included (default: concurrency + the few spares that pay off and free memory allows)',
    );
    expect(help).toContain(option('--max-processes'));
  });
});

import path from 'node:path';
import type { Command } from 'commander';
import { formatConfigIssue } from '../../errors.js';
import type { CommandContext } from '../command-context.js';
import { ExitCode, type ExitCodeValue } from '../exit-codes.js';
import type { Style } from '../terminal-style.js';

export interface ValidateOptions {
  json: boolean;
}

/**
 * `holodeck validate <file>`: every check `chat` and `test` make before starting a model process,
 * every problem at once.
 */
export async function validateCommand(
  file: string,
  options: ValidateOptions,
  style: Style,
): Promise<ExitCodeValue> {
  // Loaded on use: the checks import the runner and the metrics, which `schema` does not need.
  const { checkAgentRun } = await import('../../runner/check-agent-run.js');
  const { issues, warnings } = await checkAgentRun(file);
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ valid: issues.length === 0, issues, warnings }, null, 2)}\n`);
    return issues.length ? ExitCode.configuration : ExitCode.ok;
  }
  // Paths relative to where the user stands, as compilers print them.
  const shown = (absolute: string) => {
    const relative = path.relative(process.cwd(), absolute);
    return relative && !relative.startsWith('..') ? relative : absolute;
  };
  for (const issue of issues) {
    process.stderr.write(
      `${style.red('error')} ${formatConfigIssue({ ...issue, file: shown(issue.file) })}\n`,
    );
  }
  for (const warning of warnings) {
    const where = warning.file ? `${shown(warning.file)}${warning.line ? `:${warning.line}` : ''}  ` : '';
    process.stderr.write(`${style.yellow('warning')} ${where}${warning.message}\n`);
  }
  if (issues.length) {
    const count = issues.length === 1 ? '1 problem' : `${issues.length} problems`;
    process.stderr.write(`${style.red('✗')} ${file}: ${count}\n`);
    return ExitCode.configuration;
  }
  const note = warnings.length ? ` (${warnings.length} warning${warnings.length === 1 ? '' : 's'})` : '';
  process.stdout.write(`${style.green('✓')} ${file} is valid${note}\n`);
  return ExitCode.ok;
}

export function registerValidateCommand(program: Command, { run, style }: CommandContext) {
  program
    .command('validate')
    .description('check an agent.yaml and print every problem with its file:line and a fix')
    .argument('<file>', 'path to agent.yaml')
    .option('--json', 'print the result as JSON', false)
    .action((file: string, options: ValidateOptions) => run(validateCommand(file, options, style)));
}

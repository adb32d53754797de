import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { type Command, Option } from 'commander';
import { type Provider, ProviderSchema } from '../../config/index.js';
import { InterruptedError, UsageError } from '../../errors.js';
import {
  agentNameFrom,
  checkAgentName,
  checkProvider,
  convertPromptfoo,
  findTemplate,
  INIT_TEMPLATES,
  type InitTemplate,
  planAgentFolder,
  shownPath,
  type TemplateFile,
  withSharedFiles,
  writeAgentFolder,
} from '../../init/index.js';
import type { CommandContext } from '../command-context.js';
import { ExitCode, type ExitCodeValue } from '../exit-codes.js';
import type { Style } from '../terminal-style.js';
import { validateCommand } from './validate-command.js';

export interface InitOptions {
  template?: string;
  provider?: string;
  name?: string;
  yes: boolean;
  list: boolean;
  fromPromptfoo?: string;
}

/** `holodeck init --list`: the templates, one a line. */
function listTemplates(): string {
  const width = Math.max(...INIT_TEMPLATES.map((template) => template.name.length));
  return `${INIT_TEMPLATES.map((template) => `${template.name.padEnd(width)}  ${template.summary}`).join('\n')}\n`;
}

/** Questions on the terminal (stderr), each with a default; Ctrl+C or Ctrl+D stops with 130. */
class Prompter {
  private readonly controller = new AbortController();
  private readonly lines = createInterface({ input: process.stdin, output: process.stderr, terminal: true });

  constructor() {
    const stop = () =>
      this.controller.abort(new InterruptedError('holodeck init was stopped: nothing was written'));
    this.lines.on('SIGINT', stop);
    this.lines.on('close', stop);
  }

  async ask(question: string, fallback: string): Promise<string> {
    try {
      const answer = await this.lines.question(`${question} (${fallback}): `, {
        signal: this.controller.signal,
      });
      return answer.trim() || fallback;
    } catch (error) {
      if (this.controller.signal.aborted) throw this.controller.signal.reason;
      throw error;
    }
  }

  /** A numbered list; the answer is a number or a name. */
  async choose<T extends string>(
    title: string,
    choices: { value: T; summary: string }[],
    fallback: T,
  ): Promise<T> {
    const width = Math.max(...choices.map((choice) => choice.value.length));
    process.stderr.write(
      `${title}\n${choices.map((choice, index) => `  ${String(index + 1).padStart(2)}) ${choice.value.padEnd(width)}  ${choice.summary}`).join('\n')}\n`,
    );
    for (;;) {
      const answer = await this.ask('Choose a number or a name', fallback);
      const byNumber = /^\d+$/.test(answer) ? choices[Number(answer) - 1] : undefined;
      const chosen = byNumber ?? choices.find((choice) => choice.value === answer);
      if (chosen) return chosen.value;
      process.stderr.write(`  "${answer}" is not one of them: type 1 to ${choices.length}, or a name\n`);
    }
  }

  close(): void {
    this.lines.removeAllListeners('close');
    this.lines.close();
  }
}

const PROVIDER_SUMMARIES: Record<Provider, string> = {
  anthropic: 'Claude, on the Claude Agent SDK',
  openai: 'OpenAI or an OpenAI-compatible server',
  azure_openai: 'an Azure OpenAI deployment',
  ollama: 'a local Ollama model',
};

interface Choices {
  directory: string;
  template?: InitTemplate;
  name: string;
  provider: Provider;
}

/** What to write: the flags, and on a terminal (without --yes) questions for what they left out. */
async function choose(directoryArgument: string | undefined, options: InitOptions): Promise<Choices> {
  const interactive = process.stdin.isTTY === true && process.stderr.isTTY === true && !options.yes;
  if (!interactive && options.template === undefined && options.fromPromptfoo === undefined && !options.yes)
    throw new UsageError(
      '--template',
      'is needed when holodeck init does not run on a terminal (nothing was asked, nothing was written)',
      `holodeck init my-agent --template conversational; --yes takes the defaults; holodeck init --list shows the templates`,
    );
  if (options.name !== undefined) checkAgentName(options.name);
  let template =
    options.fromPromptfoo === undefined ? findTemplate(options.template ?? 'conversational') : undefined;
  if (options.provider !== undefined && template) checkProvider(template, options.provider);
  if (!interactive) {
    const directory = directoryArgument ?? '.';
    return {
      directory,
      ...(template ? { template } : {}),
      name: options.name ?? agentNameFrom(path.basename(path.resolve(directory))),
      provider: template ? checkProvider(template, options.provider) : 'anthropic',
    };
  }
  const prompter = new Prompter();
  try {
    const directory = directoryArgument ?? (await prompter.ask('Folder for the agent', '.'));
    if (options.template === undefined && options.fromPromptfoo === undefined) {
      const name = await prompter.choose(
        'Template:',
        INIT_TEMPLATES.map((entry) => ({ value: entry.name, summary: entry.summary })),
        'conversational',
      );
      template = findTemplate(name);
    }
    let name = options.name;
    while (name === undefined) {
      const answer = await prompter.ask('Agent name', agentNameFrom(path.basename(path.resolve(directory))));
      try {
        name = checkAgentName(answer);
      } catch (error) {
        process.stderr.write(
          `  ${error instanceof Error ? error.message.replace(/^--name: /, '') : String(error)}\n`,
        );
      }
    }
    let provider: Provider = template?.defaultProvider ?? 'anthropic';
    if (options.provider !== undefined && template) provider = checkProvider(template, options.provider);
    else if (template && template.fixedProvider === undefined)
      provider = await prompter.choose(
        'Model provider:',
        ProviderSchema.options.map((value) => ({ value, summary: PROVIDER_SUMMARIES[value] })),
        template.defaultProvider,
      );
    return { directory, ...(template ? { template } : {}), name, provider };
  } finally {
    prompter.close();
  }
}

/**
 * `holodeck init [DIR]`: writes a working agent folder from a template (or a promptfoo suite),
 * never over an existing file, then validates what it wrote as `holodeck validate` does.
 */
export async function initCommand(
  directoryArgument: string | undefined,
  options: InitOptions,
  style: Style,
): Promise<ExitCodeValue> {
  if (options.list) {
    process.stdout.write(listTemplates());
    return ExitCode.ok;
  }
  if (
    options.fromPromptfoo !== undefined &&
    (options.template !== undefined || options.provider !== undefined)
  )
    throw new UsageError(
      '--from-promptfoo',
      'takes the model from the promptfoo providers: leave out --template and --provider',
    );
  const choices = await choose(directoryArgument, options);
  let files: TemplateFile[];
  let notConverted: string[] = [];
  if (options.fromPromptfoo !== undefined) {
    const conversion = await convertPromptfoo(options.fromPromptfoo, choices.name);
    files = withSharedFiles(conversion.files, conversion.provider);
    notConverted = conversion.notConverted;
  } else if (choices.template) {
    files = planAgentFolder(choices.template, { name: choices.name, provider: choices.provider });
  } else throw new UsageError('--template', 'no template was chosen');
  const written = await writeAgentFolder(choices.directory, files);
  const where = shownPath(choices.directory, '.');
  const label = options.fromPromptfoo ?? `the ${choices.template?.name} template`;
  process.stdout.write(`Created agent "${choices.name}" in ${where}/ from ${label}:\n`);
  for (const file of written) process.stdout.write(`  ${file}\n`);
  if (notConverted.length) {
    process.stderr.write(
      `${style.yellow('not converted')} (${notConverted.length}; also listed at the end of agent.yaml):\n${notConverted.map((line) => `  - ${line}`).join('\n')}\n`,
    );
  }
  const agentFile = shownPath(choices.directory, 'agent.yaml');
  const validation = await validateCommand(agentFile, { json: false }, style);
  const inFolder = where === '.' ? '' : `cd ${where}\n  `;
  process.stdout.write(
    `\nNext:\n  ${inFolder}cp .env.example .env   # then fill in the keys\n  holodeck chat agent.yaml\n  holodeck test agent.yaml\n`,
  );
  return validation;
}

export function registerInitCommand(program: Command, { run, style }: CommandContext) {
  program
    .command('init')
    .description('write a working agent folder from a template (or a promptfoo suite), then validate it')
    .argument('[dir]', 'the folder to write into (created when missing; default: the current folder)')
    .option('-t, --template <name>', 'the template (holodeck init --list shows them)')
    .addOption(new Option('--provider <provider>', 'the model provider').choices(ProviderSchema.options))
    .option('--name <name>', "the agent's name (default: from the folder name)")
    .option('-y, --yes', 'ask nothing: take the defaults for what the flags leave out', false)
    .option('--list', 'list the templates and exit', false)
    .option('--from-promptfoo <file>', 'convert a promptfooconfig.yaml instead of using a template')
    .addHelpText(
      'after',
      '\nOn a terminal, init asks for what the flags leave out; elsewhere --template (or --yes) is needed.\nIt never overwrites a file: when one exists, it writes nothing and exits 2.',
    )
    .action((directory: string | undefined, options: InitOptions) =>
      run(initCommand(directory, options, style)),
    );
}

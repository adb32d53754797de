import type { Command } from 'commander';
import { agentJsonSchema } from '../../config/index.js';
import type { CommandContext } from '../command-context.js';
import { ExitCode, type ExitCodeValue } from '../exit-codes.js';

/** `holodeck schema`: the JSON Schema of agent.yaml, generated from the zod schema. */
export async function schemaCommand(): Promise<ExitCodeValue> {
  process.stdout.write(`${JSON.stringify(agentJsonSchema(), null, 2)}\n`);
  return ExitCode.ok;
}

export function registerSchemaCommand(program: Command, { run }: CommandContext) {
  program
    .command('schema')
    .description('print the JSON Schema of agent.yaml (for editor completion and CI checks)')
    .action(() => run(schemaCommand()));
}

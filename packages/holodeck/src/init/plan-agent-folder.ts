import path from 'node:path';
import { agentJsonSchema, type Provider, ProviderSchema } from '../config/index.js';
import { UsageError } from '../errors.js';
import type { InitTemplate, TemplateFile } from './init-template.js';
import { modelSection } from './templates/model-section.js';

/** The JSON Schema file every agent folder gets, for editors (yaml-language-server). */
export const SCHEMA_FILE = 'agent.schema.json';

/** The first line of every agent.yaml init writes: editors find the schema through it. */
export const SCHEMA_COMMENT = `# yaml-language-server: $schema=./${SCHEMA_FILE}`;

const NAME_PATTERN = /^[A-Za-z][A-Za-z0-9-]*$/;

/** An agent name from a folder name: `My Agent_2` → `my-agent-2`; `agent` when nothing is left. */
export function agentNameFrom(folder: string): string {
  const name = folder
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^[^a-z]+/, '')
    .replace(/-+/g, '-')
    .replace(/-$/, '')
    .slice(0, 100);
  return name || 'agent';
}

/** `--name` as agent.yaml accepts it, or a UsageError saying what is allowed. */
export function checkAgentName(name: string): string {
  if (NAME_PATTERN.test(name) && name.length <= 100) return name;
  throw new UsageError(
    '--name',
    `"${name}" is not an agent name: it must start with a letter and hold only letters, digits and "-" (at most 100)`,
    `for example --name ${agentNameFrom(name)}`,
  );
}

/** `--provider` as the template accepts it. */
export function checkProvider(template: InitTemplate, provider: string | undefined): Provider {
  if (provider === undefined) return template.defaultProvider;
  const parsed = ProviderSchema.safeParse(provider);
  if (!parsed.success)
    throw new UsageError(
      '--provider',
      `there is no provider "${provider}"`,
      `one of ${ProviderSchema.options.join(', ')}`,
    );
  if (template.fixedProvider !== undefined && parsed.data !== template.fixedProvider)
    throw new UsageError(
      '--provider',
      `the ${template.name} template is for provider ${template.fixedProvider}, not ${parsed.data}`,
      `use --template conversational --provider ${parsed.data}, or leave --provider out`,
    );
  return parsed.data;
}

const GITIGNORE = `# HoloDeck's local state: saved runs, sessions, indexes, caches, the Novarch store.
.holodeck/
# Your keys (see .env.example).
.env
`;

/**
 * Every file of a new agent folder: the template's, its .env.example, a .gitignore for
 * .holodeck/ and .env, and the JSON Schema of agent.yaml (which agent.yaml's first line names).
 */
export function planAgentFolder(
  template: InitTemplate,
  options: { name: string; provider: Provider },
): TemplateFile[] {
  return withSharedFiles(
    template.render(options),
    options.provider,
    template.extraEnv?.(options.provider) ?? [],
  );
}

/** Adds the files every agent folder gets (and the schema line of agent.yaml) to `files`. */
export function withSharedFiles(
  files: readonly TemplateFile[],
  provider: Provider,
  extraEnv: readonly string[] = [],
): TemplateFile[] {
  const env = [...modelSection(provider, 1).env, ...extraEnv];
  return [
    ...files.map((file) =>
      file.path === 'agent.yaml' ? { ...file, content: `${SCHEMA_COMMENT}\n${file.content}` } : file,
    ),
    {
      path: '.env.example',
      content: `# Copy to .env (never commit .env): HoloDeck reads it from this folder.\n${env.join('\n')}\n`,
    },
    { path: '.gitignore', content: GITIGNORE },
    { path: SCHEMA_FILE, content: `${JSON.stringify(agentJsonSchema(), null, 2)}\n` },
  ];
}

/** The path a file will have, as shown to the user (relative to the working directory). */
export function shownPath(directory: string, file: string): string {
  const absolute = path.resolve(directory, file);
  const relative = path.relative(process.cwd(), absolute);
  return relative && !relative.startsWith('..') ? relative : absolute;
}

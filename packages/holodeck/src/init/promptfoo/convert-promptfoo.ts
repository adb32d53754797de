import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { z } from 'zod';
import type { Provider } from '../../config/index.js';
import type { TemplateFile } from '../init-template.js';
import { convertPromptfooTests } from './convert-promptfoo-tests.js';
import { mapPromptfooProvider } from './map-promptfoo-provider.js';
import {
  type PromptfooConfig,
  type PromptfooPromptEntry,
  readPromptfooConfig,
} from './read-promptfoo-config.js';

/** Top-level keys of promptfooconfig.yaml that are read; every other one is listed as not converted. */
const READ_KEYS = new Set(['description', 'prompts', 'providers', 'defaultTest', 'tests']);
const ChatMessagesSchema = z.array(z.looseObject({ role: z.string(), content: z.string() }));

/** What --from-promptfoo made of a promptfoo suite. */
export interface PromptfooConversion {
  /** agent.yaml and instructions.md (the shared files are added by planAgentFolder's caller). */
  files: TemplateFile[];
  provider: Provider;
  /** Everything that was not converted, one line each: shown to the user and kept in agent.yaml. */
  notConverted: string[];
  caseCount: number;
}

function asList<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** A prompt's text: inline, or `file://` relative to the config's folder. */
async function promptText(entry: PromptfooPromptEntry, folder: string): Promise<string | undefined> {
  const reference = typeof entry === 'string' ? entry : (entry.raw ?? entry.id);
  if (reference === undefined) return undefined;
  if (!reference.startsWith('file://')) return reference;
  const file = path.resolve(folder, reference.slice('file://'.length));
  if (!/\.(txt|md|json|j2|prompt)$/.test(file)) return undefined;
  return readFile(file, 'utf8').catch(() => undefined);
}

/** Splits a chat-format prompt (a JSON list of messages) into the system text and the user template. */
function splitChatPrompt(text: string): { system?: string; user: string } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const messages = ChatMessagesSchema.safeParse(parsed);
  if (!messages.success) return undefined;
  const system = messages.data
    .filter((message) => message.role === 'system')
    .map((message) => message.content);
  const user = messages.data.filter((message) => message.role === 'user').at(-1)?.content;
  if (user === undefined) return undefined;
  return { ...(system.length ? { system: system.join('\n\n') } : {}), user };
}

/** The model: the first provider that maps; the others are listed as not converted. */
function chooseModel(
  config: PromptfooConfig,
  notConverted: string[],
): { model: Record<string, unknown>; provider: Provider } {
  let model: Record<string, unknown> = { provider: 'anthropic', name: 'claude-sonnet-4-6' };
  let provider: Provider = 'anthropic';
  let modelChosen = false;
  const providers = asList(config.providers);
  if (!providers.length) notConverted.push('no providers: the model defaults to anthropic claude-sonnet-4-6');
  for (const entry of providers) {
    const id = typeof entry === 'string' ? entry : entry.id;
    const providerConfig = typeof entry === 'string' ? {} : (entry.config ?? {});
    if (modelChosen) {
      notConverted.push(
        `provider "${id}": an agent has one model (convert again with only that provider first)`,
      );
      continue;
    }
    const mapped = mapPromptfooProvider(id, providerConfig);
    if (!mapped.ok) {
      notConverted.push(mapped.reason);
      continue;
    }
    model = mapped.model;
    provider = mapped.provider;
    modelChosen = true;
    notConverted.push(...mapped.notes);
  }
  return { model, provider };
}

/** The prompt: system text → instructions, the user template → each case's input. */
async function choosePrompt(
  config: PromptfooConfig,
  folder: string,
  notConverted: string[],
): Promise<{ userTemplate: string; instructions: string }> {
  const prompts = asList(config.prompts);
  let userTemplate = '{{prompt}}';
  let instructions = "You are a helpful assistant. Answer the user's message.";
  const first = prompts[0];
  if (first === undefined) notConverted.push('no prompts: each case\'s input is its "prompt" variable');
  else {
    const textOfPrompt = await promptText(first, folder);
    if (textOfPrompt === undefined)
      notConverted.push(`prompt ${JSON.stringify(first)}: not a text or a readable file:// text file`);
    else {
      const chat = splitChatPrompt(textOfPrompt);
      if (chat) {
        userTemplate = chat.user;
        if (chat.system) instructions = chat.system;
      } else userTemplate = textOfPrompt;
    }
  }
  for (const other of prompts.slice(1))
    notConverted.push(`prompt ${JSON.stringify(other)}: an agent has one prompt (only the first was used)`);
  return { userTemplate, instructions };
}

/**
 * Converts promptfooconfig.yaml into an agent folder's agent.yaml and instructions.md: the first
 * provider becomes `model:`, the first prompt the instructions and each case's input (its
 * `{{vars}}` filled in), each test a test case, each assertion it can map a metric
 * (defaultTest's added to every case, as promptfoo does). Everything else is listed.
 */
export async function convertPromptfoo(file: string, agentName: string): Promise<PromptfooConversion> {
  const config = await readPromptfooConfig(file);
  const folder = path.dirname(path.resolve(file));
  const notConverted: string[] = [];
  for (const key of Object.keys(config)) if (!READ_KEYS.has(key)) notConverted.push(`top-level key "${key}"`);
  const { model, provider } = chooseModel(config, notConverted);
  const { userTemplate, instructions } = await choosePrompt(config, folder, notConverted);
  const { testCases, caseFiles } = await convertPromptfooTests(config, userTemplate, folder, notConverted);
  for (const key of Object.keys(config.defaultTest ?? {}))
    if (key !== 'assert' && key !== 'vars') notConverted.push(`defaultTest.${key}`);
  const defaultVars = config.defaultTest?.vars ?? {};
  const agent = {
    name: agentName,
    ...(config.description ? { description: config.description } : {}),
    model,
    instructions: { file: 'instructions.md' },
    ...(provider === 'anthropic' ? { claude: { permission_mode: 'manual' } } : {}),
    ...(Object.keys(defaultVars).length ? { default_case: { vars: defaultVars } } : {}),
    ...(testCases.length ? { test_cases: testCases } : {}),
    ...(caseFiles.length ? { test_cases_file: caseFiles.map((file) => file.path) } : {}),
  };
  const header = `# Converted from ${path.basename(file)} by holodeck init --from-promptfoo
# (docs/promptfoo-mapping.md lists what maps onto what). Check it with: holodeck validate agent.yaml
`;
  const footer = notConverted.length
    ? `\n# Not converted from ${path.basename(file)}:\n${notConverted.map((line) => `#   - ${line.replace(/\n/g, ' ')}`).join('\n')}\n`
    : '';
  return {
    files: [
      { path: 'agent.yaml', content: `${header}${stringify(agent, { lineWidth: 0 })}${footer}` },
      { path: 'instructions.md', content: `${instructions.trim()}\n` },
      ...caseFiles.map((file) => ({
        path: file.path,
        content: `# Converted from promptfoo tests by holodeck init --from-promptfoo\n${stringify(file.cases, { lineWidth: 0 })}`,
      })),
    ],
    provider,
    notConverted,
    caseCount: testCases.length + caseFiles.reduce((sum, file) => sum + file.cases.length, 0),
  };
}

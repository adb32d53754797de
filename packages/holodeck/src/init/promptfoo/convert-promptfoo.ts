import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { z } from 'zod';
import { type Provider, renderTemplate } from '../../config/index.js';
import { UsageError } from '../../errors.js';
import { errorMessage } from '../../support.js';
import type { TemplateFile } from '../init-template.js';
import { agentNameFrom } from '../plan-agent-folder.js';
import { mapPromptfooAssertion, type PromptfooAssertion } from './map-promptfoo-assertion.js';
import { mapPromptfooProvider } from './map-promptfoo-provider.js';
import { type PromptfooTestEntry, readPromptfooTests } from './read-promptfoo-tests.js';

const AssertionSchema = z.looseObject({
  type: z.string().min(1),
  value: z.unknown().optional(),
  threshold: z.number().optional(),
  weight: z.number().optional(),
  metric: z.string().optional(),
});
const TestSchema = z.looseObject({
  description: z.string().optional(),
  vars: z.record(z.string(), z.unknown()).optional(),
  assert: z.array(AssertionSchema).optional(),
});
const ProviderEntrySchema = z.union([
  z.string(),
  z.looseObject({ id: z.string(), config: z.record(z.string(), z.unknown()).optional() }),
]);
const PromptEntrySchema = z.union([
  z.string(),
  z.looseObject({ raw: z.string().optional(), id: z.string().optional() }),
]);
const PromptfooConfigSchema = z.looseObject({
  description: z.string().optional(),
  prompts: z.union([PromptEntrySchema, z.array(PromptEntrySchema)]).optional(),
  providers: z.union([ProviderEntrySchema, z.array(ProviderEntrySchema)]).optional(),
  defaultTest: z
    .looseObject({
      assert: z.array(AssertionSchema).optional(),
      vars: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
  tests: z.union([z.string(), z.array(z.union([TestSchema, z.string()]))]).optional(),
});

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

/** Replaces `{{ name }}` with the variable; a filter or a tag (`{{ x | upper }}`, `{% if %}`) is not rendered. */
function renderVars(template: string, vars: Record<string, unknown>): { text: string; unresolved: string[] } {
  const unresolved: string[] = [];
  const text = template.replace(/\{\{\s*([^}]*?)\s*\}\}/g, (whole, expression: string) => {
    const value = vars[expression];
    if (/^[A-Za-z_][\w]*$/.test(expression) && value !== undefined)
      return typeof value === 'string' ? value : JSON.stringify(value);
    unresolved.push(whole);
    return whole;
  });
  if (/\{%/.test(text)) unresolved.push('{% … %} tags');
  return { text, unresolved };
}

/** A prompt's text: inline, or `file://` relative to the config's folder. */
async function promptText(
  entry: z.infer<typeof PromptEntrySchema>,
  folder: string,
): Promise<string | undefined> {
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

function uniqueName(base: string, taken: Set<string>): string {
  let name = agentNameFrom(base).slice(0, 60) || 'case';
  for (let index = 2; taken.has(name); index++) name = `${agentNameFrom(base).slice(0, 60)}-${index}`;
  taken.add(name);
  return name;
}

/**
 * Converts promptfooconfig.yaml into an agent folder's agent.yaml and instructions.md: the first
 * provider becomes `model:`, the first prompt the instructions and each case's input (its
 * `{{vars}}` filled in), each test a test case, each assertion it can map a metric
 * (defaultTest's added to every case, as promptfoo does). Everything else is listed.
 */
export async function convertPromptfoo(file: string, agentName: string): Promise<PromptfooConversion> {
  const text = await readFile(file, 'utf8').catch((error: unknown) => {
    throw new UsageError(
      '--from-promptfoo',
      `cannot read ${file}: ${errorMessage(error)}`,
      'give the path of a promptfooconfig.yaml',
    );
  });
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (error) {
    throw new UsageError(
      '--from-promptfoo',
      `${file} is not valid YAML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    );
  }
  const checked = PromptfooConfigSchema.safeParse(raw);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new UsageError(
      '--from-promptfoo',
      `${file} is not a promptfoo config: ${issue ? `${issue.path.join('.') || 'the document'}: ${issue.message}` : 'unreadable'}`,
      'it needs prompts, providers and tests as promptfoo documents them',
    );
  }
  const config = checked.data;
  const folder = path.dirname(path.resolve(file));
  const notConverted: string[] = [];
  for (const key of Object.keys(config)) if (!READ_KEYS.has(key)) notConverted.push(`top-level key "${key}"`);

  // The model: the first provider that maps.
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

  // The prompt: system text → instructions, the user template → each case's input.
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

  // Tests.
  const mapAssertions = (assertions: PromptfooAssertion[], where: string, vars: Record<string, unknown>) =>
    assertions.flatMap((assertion) => {
      const rendered =
        typeof assertion.value === 'string'
          ? { ...assertion, value: renderVars(assertion.value, vars).text }
          : assertion;
      const mapped = mapPromptfooAssertion(rendered);
      if (mapped.ok) return [mapped.metric];
      notConverted.push(`${where}: ${mapped.reason}`);
      return [];
    });
  const defaultVars = config.defaultTest?.vars ?? {};
  const taken = new Set<string>();
  /** One promptfoo test as a HoloDeck case: vars stay vars where HoloDeck's templates render the prompt. */
  const convertTest = (test: z.infer<typeof TestSchema>, where: string, index: number) => {
    const ownVars = test.vars ?? {};
    const vars = { ...defaultVars, ...ownVars };
    for (const [name, value] of Object.entries(ownVars))
      if (Array.isArray(value)) notConverted.push(`${where}: vars.${name} is a list (a promptfoo matrix)`);
      else if (typeof value === 'string' && value.startsWith('file://'))
        notConverted.push(`${where}: vars.${name} is read from a file (${value}): copy its text in`);
    const listVars = Object.values(vars).some(Array.isArray);
    const promptfooOnly = renderVars(userTemplate, vars).unresolved;
    // The prompt as a template over the case's vars (and default_case's), as promptfoo keeps it,
    // when HoloDeck's template language renders it; otherwise rendered here, as written.
    const templated = !listVars && !promptfooOnly.length && renderTemplate(userTemplate, vars).ok;
    const input = templated ? { text: userTemplate, unresolved: [] } : renderVars(userTemplate, vars);
    if (input.unresolved.length)
      notConverted.push(`${where}: the prompt's ${input.unresolved.join(', ')} left as written`);
    for (const key of Object.keys(test))
      if (!['description', 'vars', 'assert'].includes(key)) notConverted.push(`${where}: ${key}`);
    const metrics = [
      ...mapAssertions(test.assert ?? [], where, vars),
      ...mapAssertions(config.defaultTest?.assert ?? [], `${where}, defaultTest.assert`, vars),
    ];
    return {
      name: uniqueName(test.description ?? `case-${index + 1}`, taken),
      input: input.text,
      ...(templated && Object.keys(ownVars).length ? { vars: ownVars } : {}),
      ...(metrics.length ? { metrics } : {}),
    };
  };
  const inline = typeof config.tests === 'string' ? [config.tests] : (config.tests ?? []);
  const testCases: Record<string, unknown>[] = [];
  /** Tests from `file://` references: one converted cases file each, under cases/. */
  const caseFiles: { path: string; cases: Record<string, unknown>[] }[] = [];
  const readTests = async (reference: string, where: string) => {
    if (!reference.startsWith('file://')) {
      notConverted.push(`${where}: "${reference}" (not a file:// reference)`);
      return;
    }
    for (const source of await readPromptfooTests(reference, folder)) {
      notConverted.push(...source.problems);
      const cases = source.tests.flatMap((entry: PromptfooTestEntry, index) => {
        const test = TestSchema.safeParse(entry);
        const at = `${source.file} test ${index + 1}`;
        if (test.success) return [convertTest(test.data, at, index)];
        notConverted.push(`${at}: not a promptfoo test (${test.error.issues[0]?.message ?? 'unreadable'})`);
        return [];
      });
      if (!cases.length) continue;
      const base = agentNameFrom(path.basename(source.file, path.extname(source.file))) || 'cases';
      let name = `cases/${base}.yaml`;
      for (let n = 2; caseFiles.some((file) => file.path === name); n++) name = `cases/${base}-${n}.yaml`;
      caseFiles.push({ path: name, cases });
    }
  };
  for (const [index, test] of inline.entries()) {
    const where = typeof config.tests === 'string' ? 'tests' : `tests[${index}]`;
    if (typeof test === 'string') await readTests(test, where);
    else
      testCases.push(
        convertTest(test, `tests[${index}]${test.description ? ` (${test.description})` : ''}`, index),
      );
  }
  for (const key of Object.keys(config.defaultTest ?? {}))
    if (key !== 'assert' && key !== 'vars') notConverted.push(`defaultTest.${key}`);

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

import type { Provider } from '../../config/index.js';

/** A promptfoo provider as agent.yaml's `model:`, or why it cannot be one. */
export type MappedProvider =
  | { ok: true; model: Record<string, unknown>; provider: Provider; notes: string[] }
  | { ok: false; reason: string };

const PREFIXES: ReadonlyArray<readonly [RegExp, Provider]> = [
  [/^anthropic:(?:messages:)?(.+)$/, 'anthropic'],
  [/^openai:(?:chat:)?(.+)$/, 'openai'],
  [/^(?:azure|azureopenai):(?:chat:)?(.+)$/, 'azure_openai'],
  [/^ollama:(?:chat:)?(.+)$/, 'ollama'],
];

/** The config keys of a promptfoo provider that map onto `model:` (others are listed as not mapped). */
const CONFIG_KEYS: Record<string, string> = {
  temperature: 'temperature',
  max_tokens: 'max_tokens',
  apiHost: 'endpoint',
  apiBaseUrl: 'endpoint',
  baseUrl: 'endpoint',
};

/**
 * `openai:gpt-4o-mini`, `anthropic:messages:claude-sonnet-4-6`, `azure:chat:<deployment>`,
 * `ollama:chat:llama3.2`, with the config keys agent.yaml has (temperature, max_tokens, the host).
 */
export function mapPromptfooProvider(id: string, config: Record<string, unknown>): MappedProvider {
  const match = PREFIXES.map(([pattern, provider]) => ({ found: pattern.exec(id), provider })).find(
    (entry) => entry.found,
  );
  const name = match?.found?.[1];
  if (!match || !name)
    return {
      ok: false,
      reason: `provider "${id}": only anthropic:, openai:, azure: and ollama: models map onto model:`,
    };
  if (match.provider === 'openai' && /^(embedding|embeddings|assistant|realtime|responses):/.test(name))
    return { ok: false, reason: `provider "${id}": only OpenAI chat models map onto model:` };
  const model: Record<string, unknown> = { provider: match.provider, name };
  const notes: string[] = [];
  for (const [key, value] of Object.entries(config)) {
    const target = CONFIG_KEYS[key];
    if (target === undefined) {
      notes.push(`provider "${id}": config.${key}`);
      continue;
    }
    if (target === 'endpoint' && typeof value === 'string')
      model.endpoint = /^https?:\/\//.test(value) ? value : `https://${value}`;
    else if (target !== 'endpoint' && typeof value === 'number') model[target] = value;
    else notes.push(`provider "${id}": config.${key} (${JSON.stringify(value)})`);
  }
  if (match.provider === 'azure_openai') {
    model.deployment = name;
    // biome-ignore lint/suspicious/noTemplateCurlyInString: agent.yaml's own ${VAR} syntax
    if (model.endpoint === undefined) model.endpoint = '${AZURE_OPENAI_ENDPOINT}';
  }
  return { ok: true, model, provider: match.provider, notes };
}

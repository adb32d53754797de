import type { LLMProvider, LoadedAgent } from '../config/index.js';
import type { MetricContext } from '../evals/metric.js';
import { EmbeddingsClient } from '../tools/retrieval/embed/embeddings-client.js';
import {
  type EmbeddingSettings,
  resolveEmbeddingSettings,
} from '../tools/retrieval/embed/resolve-embedding-settings.js';

/**
 * The embeddings settings of a `similar` metric: its own embedding_provider, else the agent's, else
 * its model's provider (as for retrieval tools). Throws when there is none, or a key is missing.
 */
export function metricEmbeddingSettings(
  agent: LoadedAgent,
  provider: LLMProvider | undefined,
): EmbeddingSettings {
  const source = provider ?? agent.config.embedding_provider;
  if (!source && agent.config.model.provider === 'anthropic')
    throw new Error(
      'provider anthropic has no embeddings API: add embedding_provider to agent.yaml or to the metric, e.g. {provider: openai, name: text-embedding-3-small}',
    );
  return resolveEmbeddingSettings(
    provider ? { ...agent, config: { ...agent.config, embedding_provider: provider } } : agent,
    {},
    -1,
  );
}

/**
 * The `embed` of the metric context (the `similar` metric): one embeddings client per provider,
 * made on first use. A metric's own embedding_provider wins over the agent's; the agent's is its
 * embedding_provider, else its model's provider (as for retrieval tools). `fetch` is the
 * recorder's in `--record` / `--replay` runs. Each answered request is told to `onCall`, priced
 * as an embeddings call of the attempt that made it.
 */
export function metricEmbeddings(
  agent: LoadedAgent,
  fetch?: typeof globalThis.fetch,
): MetricContext['embed'] {
  const clients = new Map<string, EmbeddingsClient>();
  const clientFor = (provider: LLMProvider | undefined): EmbeddingsClient => {
    const key = JSON.stringify(provider ?? null);
    const known = clients.get(key);
    if (known) return known;
    const client = new EmbeddingsClient(metricEmbeddingSettings(agent, provider), fetch ? { fetch } : {});
    clients.set(key, client);
    return client;
  };
  return (texts, provider, signal, onCall) => {
    const client = clientFor(provider);
    const called = {
      kind: 'embeddings',
      provider: client.settings.provider,
      model: client.settings.model,
    } as const;
    return client.embed(
      texts,
      signal,
      undefined,
      onCall &&
        ((inputTokens) =>
          onCall({
            ...called,
            cached: false,
            ...(inputTokens === undefined
              ? {}
              : {
                  usage: {
                    input_tokens: inputTokens,
                    output_tokens: 0,
                    cache_read_tokens: 0,
                    cache_creation_tokens: 0,
                    counting: 'cache-included',
                  },
                }),
          })),
    );
  };
}

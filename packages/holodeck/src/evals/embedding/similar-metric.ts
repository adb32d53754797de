import type { MetricConfig } from '../../config/index.js';
import { errorMessage } from '../../support.js';
import type { Metric } from '../metric.js';
import { errorOutcome, metricName, scoredOutcome } from '../metric-outcome.js';

type SimilarConfig = Extract<MetricConfig, { type: 'similar' }>;

/** The cosine of the angle between two vectors (0 when either is all zeros). */
export function cosineSimilarity(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let index = 0; index < a.length; index++) {
    const x = a[index] ?? 0;
    const y = b[index] ?? 0;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

/**
 * `similar`: embeds the response and each reference (`value`, else the case's ground_truth) and
 * scores the highest cosine similarity, clamped to 0..1; passes at `threshold` (default 0.75).
 * An empty response scores 0 without a request; no embeddings model, or a failed request, is an
 * error outcome.
 */
export function createSimilarMetric(config: SimilarConfig): Metric {
  return {
    name: metricName(config),
    type: config.type,
    async evaluate(input, context) {
      const references =
        config.value === undefined
          ? input.groundTruth?.trim()
            ? [input.groundTruth]
            : []
          : typeof config.value === 'string'
            ? [config.value]
            : config.value;
      if (!references.length)
        return errorOutcome(
          config,
          'similar needs a reference: add ground_truth to the test case, or value to the metric',
          config.threshold,
        );
      if (!input.response.trim()) return scoredOutcome(config, 0, config.threshold, 'the response is empty');
      if (!context.embed)
        return errorOutcome(
          config,
          'similar needs an embeddings model, and this run has none',
          config.threshold,
        );
      let vectors: Float32Array[];
      try {
        vectors = await context.embed(
          [input.response, ...references],
          config.embedding_provider,
          context.signal,
          context.onGradingCall,
        );
      } catch (error) {
        if (context.signal?.aborted) throw error;
        return errorOutcome(config, `embeddings failed: ${errorMessage(error)}`, config.threshold);
      }
      const [response, ...others] = vectors;
      const scores = others.map((vector) => (response ? cosineSimilarity(response, vector) : 0));
      const best = Math.max(...scores);
      const closest =
        references.length > 1
          ? ` (closest: reference ${scores.indexOf(best) + 1} of ${references.length})`
          : '';
      return scoredOutcome(
        config,
        best,
        config.threshold,
        `cosine similarity ${best.toFixed(3)} to the reference${closest} vs threshold ${config.threshold}`,
      );
    },
  };
}

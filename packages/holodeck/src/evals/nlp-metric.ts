import type { MetricConfig } from '../config/index.js';
import type { Metric } from './metric.js';
import { errorOutcome, metricName, scoredOutcome } from './metric-outcome.js';
import { levenshteinSimilarity, meteorScore, rougeScores, sentenceBleu } from './nlp/index.js';

type NlpConfig = Extract<MetricConfig, { type: 'bleu' | 'rouge' | 'meteor' | 'levenshtein' }>;

function score(config: NlpConfig, reference: string, response: string): number {
  switch (config.type) {
    case 'bleu':
      // auto_reweigh: a short exact answer (< 4 tokens) scores 1 instead of ~0.18 (NLTK option, same fixtures).
      return sentenceBleu(reference, response, { autoReweigh: true });
    case 'rouge':
      return rougeScores(reference, response)[config.variant].fmeasure;
    case 'meteor':
      return meteorScore(reference, response);
    case 'levenshtein':
      return levenshteinSimilarity(reference, response);
  }
}

/** bleu / rouge / meteor / levenshtein against `value` or the case's ground_truth. */
export function createNlpMetric(config: NlpConfig): Metric {
  const label = config.type === 'rouge' ? config.variant : config.type;
  return {
    name: metricName(config),
    type: config.type,
    async evaluate(input) {
      const reference = config.value ?? input.groundTruth;
      if (reference === undefined) {
        return errorOutcome(
          config,
          `${config.type} needs a reference: add ground_truth to the test case (or value to the metric)`,
        );
      }
      const value = score(config, reference, input.response);
      return scoredOutcome(
        config,
        value,
        config.threshold,
        `${label} ${value.toFixed(3)} vs threshold ${config.threshold}`,
      );
    },
  };
}

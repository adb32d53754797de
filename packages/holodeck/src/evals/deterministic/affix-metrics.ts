import type { MetricConfig } from '../../config/index.js';
import type { Metric } from '../metric.js';
import { checkOutcome, metricName } from '../metric-outcome.js';

type AffixConfig = Extract<
  MetricConfig,
  { type: 'starts-with' | 'ends-with' | 'not-starts-with' | 'not-ends-with' }
>;
type WordCountConfig = Extract<MetricConfig, { type: 'word-count' }>;

/** starts-with / ends-with and their `not-` twins: any of the values at the start (or end). */
export function createAffixMetric(config: AffixConfig): Metric {
  const negated = config.type.startsWith('not-');
  const atStart = config.type.endsWith('starts-with');
  const values = Array.isArray(config.value) ? config.value : [config.value];
  const fold = (text: string) => (config.ignore_case ? text.toLowerCase() : text);
  const where = atStart ? 'starts' : 'ends';
  return {
    name: metricName(config),
    type: config.type,
    async evaluate(input) {
      const response = fold(config.trim ? input.response.trim() : input.response);
      const found = values.find((value) =>
        atStart ? response.startsWith(fold(value)) : response.endsWith(fold(value)),
      );
      const matched = found !== undefined;
      const reason = matched
        ? `the response ${where} with ${JSON.stringify(found)}`
        : `the response ${where} with none of ${values.map((value) => JSON.stringify(value)).join(', ')}`;
      return checkOutcome(config, negated ? !matched : matched, reason);
    },
  };
}

const wordSegmenter = new Intl.Segmenter(undefined, { granularity: 'word' });

/** Words as Unicode word segmentation finds them (punctuation and spaces are not words). */
export function countWords(text: string): number {
  let count = 0;
  for (const segment of wordSegmenter.segment(text)) if (segment.isWordLike) count += 1;
  return count;
}

/** word-count: the response has between `min` and `max` words (either bound optional). */
export function createWordCountMetric(config: WordCountConfig): Metric {
  const bounds = [
    config.min === undefined ? undefined : `at least ${config.min}`,
    config.max === undefined ? undefined : `at most ${config.max}`,
  ].filter((bound) => bound !== undefined);
  return {
    name: metricName(config),
    type: config.type,
    async evaluate(input) {
      const words = countWords(input.response);
      const passed =
        (config.min === undefined || words >= config.min) &&
        (config.max === undefined || words <= config.max);
      return checkOutcome(
        config,
        passed,
        `the response has ${words} word${words === 1 ? '' : 's'} (${passed ? 'within' : 'outside'} ${bounds.join(' and ')})`,
      );
    },
  };
}

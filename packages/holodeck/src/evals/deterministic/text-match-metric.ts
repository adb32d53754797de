import type { MetricConfig } from '../../config/index.js';
import type { Metric, MetricInput } from '../metric.js';
import { checkOutcome, metricName } from '../metric-outcome.js';

type TextMatchType =
  | 'equals'
  | 'contains'
  | 'icontains'
  | 'contains-any'
  | 'contains-all'
  | 'icontains-any'
  | 'icontains-all'
  | 'regex';
type TextMatchConfig = Extract<MetricConfig, { type: TextMatchType | `not-${TextMatchType}` }>;

function quoted(values: readonly string[]): string {
  return values.map((value) => JSON.stringify(value)).join(', ');
}

/** Decides the un-negated check; returns [passed, reason-if-passed, reason-if-failed]. */
function check(base: TextMatchType, config: TextMatchConfig, response: string): [boolean, string, string] {
  if (config.type === 'equals' || config.type === 'not-equals') {
    const equal = config.ignore_case
      ? response.trim().toLowerCase() === config.value.trim().toLowerCase()
      : response.trim() === config.value.trim();
    return [
      equal,
      'the response equals the expected text',
      `the response is not ${JSON.stringify(config.value)}`,
    ];
  }
  if (config.type === 'regex' || config.type === 'not-regex') {
    const pattern = new RegExp(config.value, config.flags);
    return [
      pattern.test(response),
      `the response matches /${config.value}/`,
      `the response does not match /${config.value}/`,
    ];
  }
  const values = Array.isArray(config.value) ? config.value : [config.value];
  const ignoreCase = base.startsWith('i');
  const mode = base.endsWith('-all')
    ? 'all'
    : base.endsWith('-any')
      ? 'any'
      : ('mode' in config && config.mode) || 'any';
  const haystack = ignoreCase ? response.toLowerCase() : response;
  const found = values.filter((value) => haystack.includes(ignoreCase ? value.toLowerCase() : value));
  const missing = values.filter((value) => !found.includes(value));
  const passed = mode === 'all' ? missing.length === 0 : found.length > 0;
  return [
    passed,
    `the response contains ${quoted(found)}`,
    mode === 'all'
      ? `the response lacks ${quoted(missing)}`
      : `the response contains none of ${quoted(values)}`,
  ];
}

/** equals / contains family / regex, and their `not-` twins. */
export function createTextMatchMetric(config: TextMatchConfig): Metric {
  const negated = config.type.startsWith('not-');
  const base = config.type.replace(/^not-/, '') as TextMatchType;
  return {
    name: metricName(config),
    type: config.type,
    async evaluate(input: MetricInput) {
      const [matched, whenMatched, whenNot] = check(base, config, input.response);
      const passed = negated ? !matched : matched;
      return checkOutcome(config, passed, matched ? whenMatched : whenNot);
    },
  };
}

import {
  CARD_CANDIDATE_PATTERN,
  EMAIL_PATTERN,
  PHONE_PATTERN,
  passesLuhn,
  SECRET_PATTERNS,
} from 'secret-patterns';
import type { MetricConfig } from '../../config/index.js';
import type { Metric } from '../metric.js';
import { checkOutcome, metricName } from '../metric-outcome.js';

type PiiConfig = Extract<MetricConfig, { type: 'pii' }>;
type PiiKind = NonNullable<PiiConfig['kinds']>[number];

/** One finding, described without repeating the value (a report must not carry the secret). */
interface Finding {
  what: string;
  value: string;
  /** Where it starts in the response (0-based). */
  index: number;
}

function findingsOf(kind: PiiKind, text: string): Finding[] {
  const matches = (pattern: RegExp) =>
    [...text.matchAll(pattern)].map((match) => ({ value: match[0], index: match.index }));
  switch (kind) {
    case 'secrets':
      return SECRET_PATTERNS.flatMap(({ label, pattern }) =>
        matches(pattern).map((match) => ({ what: label, ...match })),
      );
    case 'cards':
      return matches(CARD_CANDIDATE_PATTERN)
        .filter((match) => passesLuhn(match.value.replace(/[ -]/g, '')))
        .map((match) => ({ what: 'a card number', ...match }));
    case 'emails':
      return matches(EMAIL_PATTERN).map((match) => ({ what: 'an email address', ...match }));
    case 'phones':
      return matches(PHONE_PATTERN).map((match) => ({ what: 'a phone number', ...match }));
  }
}

/**
 * pii: passes when the response holds none of the chosen kinds of secrets and personal data.
 * The reason names what was found and where, never the value itself.
 */
export function createPiiMetric(config: PiiConfig): Metric {
  const kinds: readonly PiiKind[] = config.kinds ?? ['secrets', 'cards', 'emails', 'phones'];
  const allowed = new Set(config.allow ?? []);
  return {
    name: metricName(config),
    type: config.type,
    async evaluate(input) {
      const findings = kinds
        .flatMap((kind) => findingsOf(kind, input.response))
        .filter((finding) => !allowed.has(finding.value));
      if (findings.length === 0)
        return checkOutcome(config, true, `the response holds no ${kinds.join(', ')}`);
      const described = findings.map((finding) => `${finding.what} at character ${finding.index + 1}`);
      return checkOutcome(config, false, `the response holds ${[...new Set(described)].join('; ')}`);
    },
  };
}

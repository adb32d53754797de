/** A promptfoo assertion as a HoloDeck metric, or why it has none. */
export type MappedAssertion = { ok: true; metric: Record<string, unknown> } | { ok: false; reason: string };

/** Assertion types whose HoloDeck metric has the same name and the same `value`. */
export const SAME_NAME: ReadonlySet<string> = new Set([
  'equals',
  'contains',
  'icontains',
  'contains-any',
  'contains-all',
  'icontains-any',
  'icontains-all',
  'regex',
  'is-json',
  'starts-with',
  'ends-with',
  'is-xml',
]);
/** Similarity metrics: the reference (`value`) and a 0..1 threshold. */
export const SIMILARITY: Record<string, string> = {
  levenshtein: 'levenshtein',
  bleu: 'bleu',
  meteor: 'meteor',
};
/** Judged metrics graded by evaluations.model. */
export const JUDGED: Record<string, string> = {
  'answer-relevance': 'answer_relevancy',
  'context-faithfulness': 'faithfulness',
  'context-recall': 'contextual_recall',
  'context-relevance': 'contextual_relevancy',
};

/** A promptfoo assertion entry, as read from promptfooconfig.yaml (checked with zod first). */
export interface PromptfooAssertion {
  type: string;
  value?: unknown;
  threshold?: number | undefined;
  weight?: number | undefined;
  metric?: string | undefined;
  [key: string]: unknown;
}

const KNOWN_KEYS = new Set(['type', 'value', 'threshold', 'weight', 'metric']);

function common(assertion: PromptfooAssertion): Record<string, unknown> {
  return {
    ...(assertion.metric ? { name: assertion.metric } : {}),
    ...(assertion.weight !== undefined ? { weight: assertion.weight } : {}),
  };
}

/** An assertion's value, and the same as a text or a list of texts when it is one. */
interface AssertionValue {
  value: unknown;
  text: string | undefined;
  texts: string[] | undefined;
}

/** The assertions whose metric has the same name (is-json, equals, regex, contains, ...). */
function mapSameName(type: string, { value, text, texts }: AssertionValue): MappedAssertion {
  if (type === 'is-json') {
    if (value === undefined) return { ok: true, metric: { type: 'is-json' } };
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return { ok: true, metric: { type: 'json-schema', value } };
    return { ok: false, reason: 'is-json with a schema that is not an inline object' };
  }
  if (type === 'is-xml') return { ok: true, metric: { type } };
  if (type === 'equals') {
    if (value === undefined) return { ok: false, reason: 'equals without a value' };
    return { ok: true, metric: { type, value: typeof value === 'string' ? value : JSON.stringify(value) } };
  }
  if (type === 'regex') {
    if (!text) return { ok: false, reason: 'regex without a pattern' };
    return { ok: true, metric: { type, value: text } };
  }
  if (text !== undefined && text !== '') return { ok: true, metric: { type, value: text } };
  if (texts?.length) return { ok: true, metric: { type, value: texts } };
  return { ok: false, reason: `${type} without a text value` };
}

/** The assertions on the answer's shape: contains-json, word-count, one-expression javascript. */
function mapShape(
  type: string,
  assertion: PromptfooAssertion,
  { value, text }: AssertionValue,
): MappedAssertion | undefined {
  if (type === 'contains-json') {
    if (value === undefined) return { ok: true, metric: { type } };
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return { ok: true, metric: { type, value } };
    return { ok: false, reason: 'contains-json with a schema that is not an inline object' };
  }
  if (type === 'word-count') {
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0)
      return { ok: true, metric: { type, min: value, max: value } };
    const range =
      typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.entries(value) : [];
    const bounds = Object.fromEntries(
      range.filter(([key, bound]) => (key === 'min' || key === 'max') && Number.isInteger(bound)),
    );
    if (range.length && Object.keys(bounds).length === range.length)
      return { ok: true, metric: { type, ...bounds } };
    return { ok: false, reason: 'word-count whose value is not a count or {min, max}' };
  }
  if (type === 'javascript') {
    // One expression over `output` is an `expression` metric; a function body (return, several
    // statements) or promptfoo's `context` is not.
    if (text && !/\breturn\b|\bcontext\b|;\s*\S/.test(text.trim()) && !text.trim().includes('\n'))
      return {
        ok: true,
        metric: {
          type: 'expression',
          value: text.trim(),
          ...(assertion.threshold !== undefined ? { threshold: assertion.threshold } : {}),
        },
      };
    return {
      ok: false,
      reason: 'javascript that is not one expression over output (write a grader module and use type: code)',
    };
  }
  return undefined;
}

/** The scored assertions: similarity, refusal, latency and cost, and the judged ones. */
function mapScored(
  type: string,
  assertion: PromptfooAssertion,
  { value, text, texts }: AssertionValue,
): MappedAssertion | undefined {
  const similarity = SIMILARITY[type] ?? (type === 'rouge-n' ? 'rouge' : undefined);
  if (similarity) {
    if (value !== undefined && text === undefined)
      return { ok: false, reason: `${type} with a reference that is not a text` };
    return {
      ok: true,
      metric: {
        type: similarity,
        ...(similarity === 'rouge' ? { variant: 'rouge1' } : {}),
        ...(text !== undefined ? { value: text } : {}),
        ...(assertion.threshold !== undefined ? { threshold: assertion.threshold } : {}),
      },
    };
  }
  if (type === 'similar') {
    // The same metric: cosine similarity of embeddings, the closest of several references.
    if (value !== undefined && text === undefined && !texts?.length)
      return { ok: false, reason: 'similar with a reference that is not a text or a list of texts' };
    return {
      ok: true,
      metric: {
        type,
        ...(value !== undefined ? { value: text ?? texts } : {}),
        ...(assertion.threshold !== undefined ? { threshold: assertion.threshold } : {}),
      },
    };
  }
  if (type === 'is-refusal') return { ok: true, metric: { type } };
  if (type === 'latency' || type === 'cost') {
    if (assertion.threshold === undefined) return { ok: false, reason: `${type} without a threshold` };
    return { ok: true, metric: { type, threshold: assertion.threshold } };
  }
  if (type === 'llm-rubric' || type === 'g-eval') {
    if (!text) return { ok: false, reason: `${type} whose rubric is not a text` };
    const threshold = assertion.threshold !== undefined ? { threshold: assertion.threshold } : {};
    return {
      ok: true,
      metric:
        type === 'llm-rubric'
          ? { type: 'rubric', value: text, ...threshold }
          : { type: 'g-eval', name: assertion.metric ?? 'g-eval', criteria: text, ...threshold },
    };
  }
  const judged = JUDGED[type];
  if (judged)
    return {
      ok: true,
      metric: {
        type: judged,
        ...(assertion.threshold !== undefined ? { threshold: assertion.threshold } : {}),
      },
    };
  return undefined;
}

/** The metric, without the `not-` of a negated assertion. */
function mapPositive(type: string, assertion: PromptfooAssertion): MappedAssertion {
  const value = assertion.value;
  const text = typeof value === 'string' ? value : undefined;
  const texts = Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;
  const given: AssertionValue = { value, text, texts };
  if (SAME_NAME.has(type)) return mapSameName(type, given);
  const mapped = mapShape(type, assertion, given) ?? mapScored(type, assertion, given);
  if (mapped) return mapped;
  const hint = NO_METRIC_HINTS[type];
  return { ok: false, reason: `assertion type "${type}" has no HoloDeck metric${hint ? ` (${hint})` : ''}` };
}

/** What to write instead, for the assertions people use most that have no metric of their own. */
const NO_METRIC_HINTS: Record<string, string> = {
  python: 'port it to a JS/TS grader module and use type: code',
  factuality: 'use a g-eval or a rubric naming the facts',
  'model-graded-closedqa': 'use a rubric',
};

/** Types that have a `not-` twin in HoloDeck (the deterministic checks). */
const NEGATABLE = new Set([...SAME_NAME, 'json-schema', 'is-refusal']);

/**
 * One promptfoo assertion → one HoloDeck metric (docs/promptfoo-mapping.md has the table). A
 * `file://` value, a `transform`, or options HoloDeck has no equivalent of are reasons, not guesses.
 */
export function mapPromptfooAssertion(assertion: PromptfooAssertion): MappedAssertion {
  const extra = Object.keys(assertion).filter((key) => !KNOWN_KEYS.has(key));
  if (extra.length) return { ok: false, reason: `${assertion.type} with ${extra.join(', ')}` };
  if (typeof assertion.value === 'string' && assertion.value.startsWith('file://'))
    return { ok: false, reason: `${assertion.type} with a file:// value` };
  const negated = assertion.type.startsWith('not-');
  const type = negated ? assertion.type.slice(4) : assertion.type;
  const mapped = mapPositive(type, assertion);
  if (!mapped.ok) return mapped;
  const metricType = String(mapped.metric.type);
  if (negated) {
    if (!NEGATABLE.has(metricType)) return { ok: false, reason: `${assertion.type} has no HoloDeck metric` };
    return { ok: true, metric: { ...mapped.metric, type: `not-${metricType}`, ...common(assertion) } };
  }
  if (metricType === 'g-eval')
    return {
      ok: true,
      metric: { ...mapped.metric, ...(assertion.weight !== undefined ? { weight: assertion.weight } : {}) },
    };
  return { ok: true, metric: { ...mapped.metric, ...common(assertion) } };
}

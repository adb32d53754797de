import type { DefaultCase, FieldPath, MetricConfig, TestCase } from '../config/index.js';
import { isTemplate, MetricConfigSchema, renderTemplate, suggestionHint } from '../config/index.js';

/** Where an issue goes: the case's own field, or default_case's when the field came from there. */
export type IssueAt = (place: 'case' | 'default', field: FieldPath, message: string, hint?: string) => void;

/** The trajectory fields, which grade one answer (a case's, or a turn's). */
const TRAJECTORY_KEYS = ['expected_tool_sequence', 'called_before', 'max_tool_calls'];

/** Keys of default_case that merge key by key (the case's entries win) or add up, not replace. */
const MERGED = new Set(['vars', 'thresholds', 'tags', 'limits']);

/**
 * The case with default_case applied: each setting the case leaves out is taken from it, `vars`,
 * `thresholds` and `limits` merge key by key (the case wins), `tags` add up. Returns the keys taken
 * wholly from default_case, so a problem in one is reported there.
 */
export function applyDefaultCase(
  testCase: TestCase,
  defaults: DefaultCase | undefined,
): { merged: TestCase; fromDefault: Set<string> } {
  const fromDefault = new Set<string>();
  if (!defaults) return { merged: testCase, fromDefault };
  const merged: Record<string, unknown> = { ...testCase };
  for (const [key, value] of Object.entries(defaults)) {
    if (value === undefined) continue;
    const own = merged[key];
    if (own === undefined) {
      merged[key] = value;
      fromDefault.add(key);
    } else if (MERGED.has(key))
      merged[key] = Array.isArray(value)
        ? [...new Set([...(value as unknown[]), ...(own as unknown[])])]
        : { ...(value as object), ...(own as object) };
  }
  return { merged: merged as TestCase, fromDefault };
}

/**
 * The case's metrics with its `thresholds` applied: each key names a metric (its `name`, else
 * its type) whose pass mark it replaces; the result is checked again against the metric's schema.
 */
function withThresholds(
  metrics: readonly MetricConfig[],
  thresholds: Readonly<Record<string, number>>,
  issueAt: IssueAt,
): MetricConfig[] {
  const names = metrics.map((metric) => metric.name ?? metric.type);
  const result = [...metrics];
  for (const [key, value] of Object.entries(thresholds)) {
    const matching = metrics.flatMap((metric, index) =>
      (metric.name ?? metric.type) === key ? [index] : [],
    );
    if (!matching.length) {
      issueAt(
        'case',
        ['thresholds', key],
        `thresholds names metric "${key}", which the case does not have`,
        names.length ? suggestionHint(key, names, 'its metrics are') : 'the case has no metrics',
      );
      continue;
    }
    for (const index of matching) {
      const metric = result[index] as MetricConfig;
      if (!('threshold' in metric)) {
        issueAt(
          'case',
          ['thresholds', key],
          `metric "${key}" (${metric.type}) is a pass/fail check and has no threshold`,
          'remove this threshold; only scored metrics and budgets have a pass mark',
        );
        continue;
      }
      const parsed = MetricConfigSchema.safeParse({ ...metric, threshold: value });
      if (!parsed.success) {
        issueAt(
          'case',
          ['thresholds', key],
          `threshold ${value} does not fit metric "${key}" (${metric.type}): ${parsed.error.issues[0]?.message ?? 'invalid'}`,
          'a score threshold is 0..1; a budget is in its own unit (ms, USD, turns)',
        );
        continue;
      }
      result[index] = parsed.data;
    }
  }
  return result;
}

/** Renders every string below `value` (keys stay), reporting a problem at its field path. */
function renderDeep(
  value: unknown,
  vars: Readonly<Record<string, unknown>>,
  field: FieldPath,
  report: (field: FieldPath, message: string, hint: string) => void,
  skip: ReadonlySet<string> = new Set(),
): unknown {
  if (typeof value === 'string') {
    if (!isTemplate(value)) return value;
    const rendered = renderTemplate(value, vars);
    if (rendered.ok) return rendered.text;
    report(field, rendered.problem.message, rendered.problem.hint);
    return value;
  }
  if (Array.isArray(value))
    return value.map((item, index) => renderDeep(item, vars, [...field, index], report));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        skip.has(key) ? item : renderDeep(item, vars, [...field, key], report),
      ]),
    );
  return value;
}

/** The fields of a case (and of its turns) whose strings are templates over its vars. */
const TEMPLATED = ['input', 'ground_truth', 'context', 'expected_tools', 'expected_tool_sequence', 'metrics'];
/** Keys of a metric that are never templated: they choose the metric, not what it checks. */
const METRIC_KEYS_KEPT = new Set(['type', 'name', 'file', 'function']);

function hasTemplate(value: unknown): boolean {
  if (typeof value === 'string') return isTemplate(value);
  if (Array.isArray(value)) return value.some(hasTemplate);
  if (typeof value === 'object' && value !== null) return Object.values(value).some(hasTemplate);
  return false;
}

/**
 * A case as it runs: default_case applied, its `thresholds` applied to its metrics, and every
 * `{{ var }}` of input, ground_truth, context, expected_tools arguments, turns and metric values
 * rendered with its vars. `defaultMetrics` (evaluations.metrics) become the case's own when it
 * needs them changed (thresholds, or templates in them). Problems go to `issueAt`.
 */
export function expandCase(
  testCase: TestCase,
  options: { defaultCase?: DefaultCase; defaultMetrics: readonly MetricConfig[] },
  issueAt: (
    place: 'case' | 'default' | 'evaluations',
    field: FieldPath,
    message: string,
    hint?: string,
  ) => void,
): TestCase {
  const { merged, fromDefault } = applyDefaultCase(testCase, options.defaultCase);
  const expanded: Record<string, unknown> = { ...merged };
  // default_case's trajectory checks are about one answer's calls: a conversation does not take them.
  if (merged.turns) for (const field of TRAJECTORY_KEYS) if (fromDefault.has(field)) delete expanded[field];
  const ownMetrics = merged.metrics !== undefined;
  if (!ownMetrics && (merged.thresholds || hasTemplate(options.defaultMetrics)))
    expanded.metrics = [...options.defaultMetrics];
  if (merged.thresholds)
    // A threshold the case does not set itself came from default_case: reported there.
    expanded.metrics = withThresholds(
      expanded.metrics as MetricConfig[],
      merged.thresholds,
      (_place, field, message, hint) =>
        issueAt(
          testCase.thresholds?.[String(field[1])] !== undefined ? 'case' : 'default',
          field,
          message,
          hint,
        ),
    );
  const vars = merged.vars ?? {};
  const report = (field: FieldPath, message: string, hint: string) => {
    const [top] = field;
    const place =
      top === 'metrics' && !ownMetrics ? 'evaluations' : fromDefault.has(String(top)) ? 'default' : 'case';
    const shown = place === 'evaluations' ? field.slice(1) : field;
    issueAt(place, shown, `test case "${merged.name}": ${message}`, hint);
  };
  const renderFields = (owner: Record<string, unknown>, prefix: FieldPath) => {
    for (const key of TEMPLATED) {
      if (owner[key] === undefined) continue;
      owner[key] =
        key === 'metrics'
          ? (owner[key] as unknown[]).map((metric, index) =>
              renderDeep(metric, vars, [...prefix, key, index], report, METRIC_KEYS_KEPT),
            )
          : renderDeep(owner[key], vars, [...prefix, key], report);
    }
  };
  renderFields(expanded, []);
  if (merged.turns)
    expanded.turns = merged.turns.map((turn, index) => {
      const copy: Record<string, unknown> = { ...turn };
      renderFields(copy, ['turns', index]);
      return copy;
    });
  return expanded as TestCase;
}

import { Script } from 'node:vm';
import { z } from 'zod';
import { addConfigIssue } from './add-config-issue.js';

/**
 * The assertion catalogue beyond text matching (promptfoo's names): prefixes and suffixes, word
 * counts, documents a real parser accepts, secrets and personal data, and inline expressions.
 * Each entry is strict, like every metric.
 */
const common = {
  name: z.string().min(1).optional().describe('Display name; defaults to the type.'),
  weight: z
    .number()
    .nonnegative()
    .optional()
    .describe('Weight in the case score (the weighted mean of metric scores); default 1.'),
};
const metricType = <const T extends string>(type: T) => z.literal(type).describe(`Metric type: ${type}.`);

const affix = <const T extends string>(type: T, where: string) =>
  z.strictObject({
    type: metricType(type),
    value: z
      .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
      .describe(`The text (or any of a list of texts) the response must ${where}.`),
    ignore_case: z.boolean().default(false).describe('Compare without regard to case.'),
    trim: z.boolean().default(true).describe('Ignore whitespace around the response (default true).'),
    ...common,
  });
export const startsWith = affix('starts-with', 'start with');
export const endsWith = affix('ends-with', 'end with');

export const wordCount = z
  .strictObject({
    type: metricType('word-count'),
    min: z.int().nonnegative().optional().describe('Fewest words the response may have.'),
    max: z.int().nonnegative().optional().describe('Most words the response may have.'),
    ...common,
  })
  .superRefine((metric, context) => {
    if (metric.min === undefined && metric.max === undefined)
      addConfigIssue(context, [], 'word-count needs "min", "max" or both', 'for example max: 50');
    else if (metric.min !== undefined && metric.max !== undefined && metric.min > metric.max)
      addConfigIssue(context, ['min'], `min (${metric.min}) is above max (${metric.max})`, 'swap them');
  });

/** A document format checked by a real parser: XML by libxml2, YAML by `yaml`, CSV by csv-parse. */
const documentFormat = <const T extends string>(type: T, format: string) =>
  z
    .strictObject({
      type: metricType(type),
      ...common,
    })
    .describe(`Passes when the whole response is well-formed ${format}.`);
export const isXml = documentFormat('is-xml', 'XML');
export const isYaml = documentFormat('is-yaml', 'YAML');
export const isCsv = documentFormat('is-csv', 'CSV (one header row, every row the same width)');

export const containsJson = z.strictObject({
  type: metricType('contains-json'),
  value: z
    .union([z.record(z.string(), z.unknown()), z.string().min(1)])
    .optional()
    .describe('A JSON Schema (inline, or a path to one) that some JSON value in the response must match.'),
  ...common,
});

/** What the `pii` metric looks for. */
export const PII_KINDS = ['secrets', 'cards', 'emails', 'phones'] as const;
export const pii = z.strictObject({
  type: metricType('pii'),
  kinds: z
    .array(z.enum(PII_KINDS))
    .min(1)
    .optional()
    .describe(
      'What counts: secrets (API keys, tokens, private keys), cards (Luhn-valid card numbers), emails, phones. Default: all.',
    ),
  allow: z
    .array(z.string().min(1))
    .optional()
    .describe('Exact values that are allowed to appear (e.g. the support address the agent must give).'),
  ...common,
});

/** The names an `expression` can read (see evals/code/expression-metric.ts). */
export const EXPRESSION_NAMES = [
  'output',
  'input',
  'ground_truth',
  'tool_calls',
  'structured_output',
  'cost_usd',
  'duration_ms',
  'turns',
  'vars',
] as const;

export const expression = z
  .strictObject({
    type: metricType('expression'),
    value: z
      .string()
      .min(1)
      .describe(
        `A JavaScript expression over ${EXPRESSION_NAMES.join(', ')}, evaluated in a sandbox with no globals; true/false, or a score in [0, 1].`,
      ),
    threshold: z.number().min(0).max(1).default(0.5).describe('Pass mark for a numeric result.'),
    timeout_ms: z
      .int()
      .positive()
      .max(10_000)
      .default(100)
      .describe('Milliseconds the expression may run; default 100.'),
    ...common,
  })
  .superRefine((metric, context) => {
    try {
      // Compiled, not run: a syntax error fails validate, not every case after a paid run.
      new Script(`(${metric.value}\n)`);
    } catch (error) {
      addConfigIssue(
        context,
        ['value'],
        `is not a JavaScript expression: ${error instanceof Error ? error.message : String(error)}`,
        `write one expression, e.g. output.length < 200 && tool_calls.length === 1 (names: ${EXPRESSION_NAMES.join(', ')})`,
      );
    }
  });

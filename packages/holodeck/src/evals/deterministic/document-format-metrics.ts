import type { ValidateFunction } from 'ajv';
import { parse as parseCsv } from 'csv-parse/sync';
import { isCollection, parseAllDocuments } from 'yaml';
import type { MetricConfig } from '../../config/index.js';
import { importPackage } from '../../import-package.js';
import { compileUserSchema } from '../../json-schema/create-ajv.js';
import { errorMessage } from '../../support.js';
import type { Metric } from '../metric.js';
import { checkOutcome, metricName } from '../metric-outcome.js';
import { findJsonValues } from './find-json-values.js';

type FormatConfig = Extract<
  MetricConfig,
  { type: 'is-xml' | 'is-yaml' | 'is-csv' | 'not-is-xml' | 'not-is-yaml' | 'not-is-csv' }
>;
type ContainsJsonConfig = Extract<MetricConfig, { type: 'contains-json' }>;

/** `undefined` when the text is a document of the format, else why not. */
type FormatCheck = (text: string) => Promise<string | undefined>;

const firstLine = (error: unknown) => errorMessage(error).split('\n')[0]?.trim() ?? '';

/** Well-formed XML, as libxml2 parses it (loaded only when a suite uses is-xml). */
const checkXml: FormatCheck = async (text) => {
  const { XmlDocument, XmlParseError } = await importPackage('libxml2-wasm');
  try {
    XmlDocument.fromString(text).dispose();
    return undefined;
  } catch (error) {
    if (!(error instanceof XmlParseError)) throw error;
    const detail = error.details[0];
    return detail ? `line ${detail.line}, column ${detail.col}: ${detail.message.trim()}` : firstLine(error);
  }
};

/**
 * YAML whose every document is a mapping or a sequence: any plain sentence is a valid YAML
 * scalar, so a scalar alone does not count as "is YAML".
 */
const checkYaml: FormatCheck = async (text) => {
  const documents = parseAllDocuments(text);
  if (!Array.isArray(documents)) return 'it holds no YAML document';
  for (const document of documents) {
    const [error] = document.errors;
    if (error) return firstLine(error);
    if (!isCollection(document.contents)) return 'it is a plain YAML scalar, not a mapping or a sequence';
  }
  return documents.length === 0 ? 'it holds no YAML document' : undefined;
};

/** CSV of a header row and at least one data row, every row as wide as the header (2+ columns). */
const checkCsv: FormatCheck = async (text) => {
  let rows: string[][];
  try {
    rows = parseCsv(text.trim(), { relax_column_count: false, skip_empty_lines: true });
  } catch (error) {
    return firstLine(error);
  }
  if (rows.length < 2) return 'it needs a header row and at least one data row';
  if ((rows[0]?.length ?? 0) < 2) return 'it has a single column (no separator found)';
  return undefined;
};

const FORMATS: Record<string, { check: FormatCheck; noun: string }> = {
  xml: { check: checkXml, noun: 'XML' },
  yaml: { check: checkYaml, noun: 'YAML' },
  csv: { check: checkCsv, noun: 'CSV' },
};

/** is-xml / is-yaml / is-csv and their `not-` twins, each by a real parser. */
export function createDocumentFormatMetric(config: FormatConfig): Metric {
  const negated = config.type.startsWith('not-');
  const format = FORMATS[config.type.replace(/^(not-)?is-/, '')];
  if (!format) throw new Error(`no parser for metric type ${config.type} (this is a bug)`);
  return {
    name: metricName(config),
    type: config.type,
    async evaluate(input) {
      const problem = await format.check(input.response.trim());
      const matched = problem === undefined;
      const reason = matched
        ? `the response is well-formed ${format.noun}`
        : `the response is not ${format.noun}: ${problem}`;
      return checkOutcome(config, negated ? !matched : matched, reason);
    },
  };
}

/** contains-json: some JSON object or array in the response (matching `value`'s schema, if given). */
export function createContainsJsonMetric(
  config: ContainsJsonConfig,
  schema?: Record<string, unknown>,
): Metric {
  const resolved = schema ?? (typeof config.value === 'object' ? config.value : undefined);
  if (config.value !== undefined && !resolved)
    throw new Error(`contains-json metric "${metricName(config)}" has no schema loaded (this is a bug)`);
  const validate: ValidateFunction | undefined = resolved ? compileUserSchema(resolved) : undefined;
  return {
    name: metricName(config),
    type: config.type,
    async evaluate(input) {
      const values =
        input.structuredOutput !== undefined ? [input.structuredOutput] : findJsonValues(input.response);
      if (values.length === 0)
        return checkOutcome(config, false, 'the response contains no JSON object or array');
      if (!validate)
        return checkOutcome(config, true, `the response contains ${values.length} JSON value(s)`);
      if (values.some((value) => validate(value)))
        return checkOutcome(config, true, 'the response contains JSON matching the schema');
      const problems = (validate.errors ?? [])
        .map((e) => `${e.instancePath || '(root)'} ${e.message}`)
        .join('; ');
      return checkOutcome(
        config,
        false,
        `none of the ${values.length} JSON value(s) in the response matches the schema (last: ${problems})`,
      );
    },
  };
}

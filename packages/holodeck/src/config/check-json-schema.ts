import type { ErrorObject } from 'ajv';
import { closestMatch } from 'yaml-diagnostics';
import { errorMessage } from '../support.js';

/** What is wrong with a user JSON Schema and how to fix it. */
export interface SchemaProblem {
  problem: string;
  hint: string;
}

const REFERENCE = 'see https://json-schema.org/understanding-json-schema';

/** Keywords people write by hand, for did-you-mean on a misspelt one. */
const KEYWORDS = [
  'type',
  'properties',
  'required',
  'items',
  'prefixItems',
  'additionalProperties',
  'enum',
  'const',
  'description',
  'title',
  'default',
  'examples',
  'format',
  'pattern',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  '$ref',
  '$defs',
  'definitions',
  'patternProperties',
  'propertyNames',
  'exclusiveMinimum',
  'exclusiveMaximum',
];

/**
 * Checks that a user-supplied JSON Schema is valid and compiles. Returns what is wrong, or undefined.
 * The draft follows `$schema` (2020-12 when absent). Strict mode is on so a misspelt keyword
 * ("proprties") is an error instead of silently matching everything.
 */
export async function checkJsonSchema(schema: Record<string, unknown>): Promise<SchemaProblem | undefined> {
  // ajv costs ~45 ms to load: only agents that have a JSON Schema pay for it.
  const { createAjvFor } = await import('../json-schema/create-ajv.js');
  const ajv = createAjvFor(schema, true);
  if (!ajv) {
    return {
      problem: `$schema "${String(schema.$schema)}" is not supported`,
      hint: 'use draft 2020-12 (or 2019-09, draft-07)',
    };
  }
  if (!ajv.validateSchema(schema)) return { problem: describeSchemaError(ajv.errors?.[0]), hint: REFERENCE };
  try {
    ajv.compile(schema);
  } catch (error) {
    const problem = errorMessage(error).replace(/^strict mode: /, '');
    const keyword = /^unknown keyword: "(.+)"/.exec(problem)?.[1];
    const match = keyword === undefined ? undefined : closestMatch(keyword, KEYWORDS);
    return { problem, hint: match === undefined ? REFERENCE : `did you mean "${match}"?` };
  }
  return undefined;
}

function describeSchemaError(error: ErrorObject | undefined | null): string {
  if (!error) return 'it does not match the JSON Schema meta-schema';
  const where = error.instancePath === '' ? 'at the root' : `at ${error.instancePath}`;
  const allowed = error.params.allowedValues;
  const options = Array.isArray(allowed) ? ` (${allowed.map(String).join(', ')})` : '';
  return `${where}: ${error.message ?? 'invalid'}${options}`;
}

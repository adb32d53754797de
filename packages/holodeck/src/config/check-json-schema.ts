import { Ajv, type ErrorObject } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule.default;

/**
 * Checks that a user-supplied JSON Schema is valid and compiles. Returns what is wrong, or undefined.
 * The draft follows `$schema` (2020-12 when absent). Strict mode is on so a misspelt keyword
 * ("proprties") is an error instead of silently matching everything.
 */
export function checkJsonSchema(schema: Record<string, unknown>): string | undefined {
  const draft = typeof schema.$schema === 'string' ? schema.$schema : undefined;
  const options = { strict: true, strictRequired: false, strictTypes: false, strictTuples: false, allErrors: true };
  let ajv: Ajv;
  if (draft === undefined || draft.includes('2020-12')) ajv = new Ajv2020(options);
  else if (draft.includes('2019-09')) ajv = new Ajv2019(options);
  else if (draft.includes('draft-07')) ajv = new Ajv(options);
  else return `$schema "${draft}" is not supported; use draft 2020-12, 2019-09 or draft-07`;
  addFormats(ajv);
  if (!ajv.validateSchema(schema)) return describeSchemaError(ajv.errors?.[0]);
  try {
    ajv.compile(schema);
  } catch (error) {
    return (error instanceof Error ? error.message : String(error)).replace(/^strict mode: /, '');
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

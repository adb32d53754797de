import { Ajv, type Options } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule.default;

/** JSON Schema drafts accepted in user schemas (chosen by `$schema`; 2020-12 when absent). */
export const SUPPORTED_DRAFTS = ['2020-12', '2019-09', 'draft-07'] as const;

/**
 * One ajv for a user JSON Schema (tool parameters, response_format), of the draft its
 * `$schema` names, so what the loader checked is exactly what runs later. Returns
 * undefined for an unsupported draft. `strict` catches misspelt keywords at load time.
 */
export function createAjvFor(schema: Record<string, unknown>, strict = false): Ajv | undefined {
  const draft = typeof schema.$schema === 'string' ? schema.$schema : undefined;
  const options: Options = {
    strict,
    strictRequired: false,
    strictTypes: false,
    strictTuples: false,
    allErrors: true,
  };
  let ajv: Ajv;
  if (draft === undefined || draft.includes('2020-12')) ajv = new Ajv2020(options);
  else if (draft.includes('2019-09')) ajv = new Ajv2019(options);
  else if (draft.includes('draft-07')) ajv = new Ajv(options);
  else return undefined;
  addFormats(ajv);
  return ajv;
}

/** Compiles a schema the loader already checked; throws only on a bug. */
export function compileUserSchema(schema: Record<string, unknown>) {
  const ajv = createAjvFor(schema);
  if (!ajv)
    throw new Error(`unsupported $schema ${String(schema.$schema)} passed the loader (this is a bug)`);
  return ajv.compile(schema);
}

import { Ajv, type Options, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { JudgeClientError } from './judge-client-error.js';
import { errorMessage } from './support.js';

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule.default;

const AJV_OPTIONS: Options = {
  strict: false,
  allErrors: true,
};

/**
 * Compiles the caller's answer schema with the draft its `$schema` names (2020-12 when absent;
 * 2019-09 and draft-07 too). A schema ajv cannot compile throws a `configuration`
 * JudgeClientError: it is the caller's mistake, found before any request is paid for.
 */
export function compileAnswerSchema(schema: Record<string, unknown>, toolName: string): ValidateFunction {
  const draft = typeof schema.$schema === 'string' ? schema.$schema : undefined;
  let ajv: Ajv;
  if (draft === undefined || draft.includes('2020-12')) ajv = new Ajv2020(AJV_OPTIONS);
  else if (draft.includes('2019-09')) ajv = new Ajv2019(AJV_OPTIONS);
  else if (draft.includes('draft-07')) ajv = new Ajv(AJV_OPTIONS);
  else {
    throw new JudgeClientError(
      `the answer schema of ${toolName} names an unsupported $schema ${JSON.stringify(draft)}: use 2020-12, 2019-09 or draft-07`,
      { code: 'configuration' },
    );
  }
  addFormats(ajv);
  try {
    return ajv.compile(schema);
  } catch (error) {
    const reason = errorMessage(error);
    throw new JudgeClientError(`the answer schema of ${toolName} is not a valid JSON Schema: ${reason}`, {
      code: 'configuration',
      cause: error,
    });
  }
}

/** The ajv errors of a failed validation as one line: `/score must be <= 5; /reason must be string`. */
export function describeSchemaErrors(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .map((error) => `${error.instancePath || '(answer)'} ${error.message ?? 'is invalid'}`)
    .join('; ');
}

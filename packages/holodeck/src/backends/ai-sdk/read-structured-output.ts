import type { ValidateFunction } from 'ajv';
import { errorMessage } from '../../support.js';

/** The answer of a run with `response_format`, checked: the object, or why there is none. */
export type StructuredOutputReading = { valid: true; value: unknown } | { valid: false; reason: string };

/**
 * Parses the final answer as JSON and validates it against response_format with ajv (the same
 * draft the loader checked). `cutOff` says the model stopped at model.max_tokens, the usual cause of
 * JSON that ends early.
 */
export function readStructuredOutput(
  text: string,
  validate: ValidateFunction,
  cutOff = false,
): StructuredOutputReading {
  const note = cutOff ? ' (the answer was cut off at model.max_tokens)' : '';
  if (text.trim() === '') {
    return {
      valid: false,
      reason: `response_format is configured but the agent returned no structured output${note}`,
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const detail = errorMessage(error);
    return {
      valid: false,
      reason: `response_format is configured but the agent's answer is not JSON: ${detail}${note}`,
    };
  }
  if (!validate(value)) {
    const problems = (validate.errors ?? [])
      .map((problem) => `${problem.instancePath || '(root)'} ${problem.message}`)
      .join('; ');
    return { valid: false, reason: `structured output does not match response_format: ${problems}` };
  }
  return { valid: true, value };
}

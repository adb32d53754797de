import type { ValidateFunction } from 'ajv';
import { z } from 'zod';
import { JudgeError } from './judge-error.js';

/** Name of the tool the judge is forced to call; its input is the verdict. */
export const VERDICT_TOOL_NAME = 'submit_verdict';

const responseSchema = z.object({
  content: z.array(z.looseObject({ type: z.string() })),
  stop_reason: z.string().nullable().optional(),
});

const toolUseSchema = z.looseObject({
  type: z.literal('tool_use'),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
});

/**
 * Takes the verdict out of a Messages API answer: the input of its `submit_verdict` tool call,
 * checked against the verdict schema. Anything else throws a JudgeError saying what was wrong.
 */
export function readVerdict(
  answer: unknown,
  validate: ValidateFunction,
  maxTokens: number,
): Record<string, unknown> {
  const message = responseSchema.safeParse(answer);
  if (!message.success) {
    throw new JudgeError('the judge API answer is not a Messages API message (no content list)', {
      code: 'no-verdict',
    });
  }
  const truncated =
    message.data.stop_reason === 'max_tokens'
      ? ` The answer was cut off at max_tokens (${maxTokens}); raise the judge's max_tokens.`
      : '';
  const block = message.data.content.find(
    (candidate) => candidate.type === 'tool_use' && candidate.name === VERDICT_TOOL_NAME,
  );
  if (block === undefined) {
    const text = message.data.content
      .map((candidate) => (typeof candidate.text === 'string' ? candidate.text : ''))
      .join(' ')
      .trim();
    const said = text === '' ? '' : ` It said: ${JSON.stringify(text.slice(0, 200))}.`;
    throw new JudgeError(`the judge did not call ${VERDICT_TOOL_NAME}.${said}${truncated}`, {
      code: 'no-verdict',
    });
  }
  const toolUse = toolUseSchema.safeParse(block);
  if (!toolUse.success) {
    throw new JudgeError(`the judge's ${VERDICT_TOOL_NAME} input is not a JSON object.${truncated}`, {
      code: 'invalid-verdict',
    });
  }
  const verdict = toolUse.data.input;
  if (!validate(verdict)) {
    const problems = (validate.errors ?? [])
      .map((error) => `${error.instancePath || '(verdict)'} ${error.message ?? 'is invalid'}`)
      .join('; ');
    throw new JudgeError(
      `the judge's verdict does not match the verdict schema: ${problems}.${truncated} Verdict: ${JSON.stringify(verdict).slice(0, 300)}`,
      { code: 'invalid-verdict' },
    );
  }
  return verdict;
}

import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { z } from 'zod';
import { UsageError } from '../../errors.js';
import { errorMessage } from '../../support.js';

const AssertionSchema = z.looseObject({
  type: z.string().min(1),
  value: z.unknown().optional(),
  threshold: z.number().optional(),
  weight: z.number().optional(),
  metric: z.string().optional(),
});
export const TestSchema = z.looseObject({
  description: z.string().optional(),
  vars: z.record(z.string(), z.unknown()).optional(),
  assert: z.array(AssertionSchema).optional(),
});
const ProviderEntrySchema = z.union([
  z.string(),
  z.looseObject({ id: z.string(), config: z.record(z.string(), z.unknown()).optional() }),
]);
const PromptEntrySchema = z.union([
  z.string(),
  z.looseObject({ raw: z.string().optional(), id: z.string().optional() }),
]);
const PromptfooConfigSchema = z.looseObject({
  description: z.string().optional(),
  prompts: z.union([PromptEntrySchema, z.array(PromptEntrySchema)]).optional(),
  providers: z.union([ProviderEntrySchema, z.array(ProviderEntrySchema)]).optional(),
  defaultTest: z
    .looseObject({
      assert: z.array(AssertionSchema).optional(),
      vars: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
  tests: z.union([z.string(), z.array(z.union([TestSchema, z.string()]))]).optional(),
});

/** One test of a promptfoo suite. */
export type PromptfooTest = z.infer<typeof TestSchema>;
/** One entry of `prompts:`. */
export type PromptfooPromptEntry = z.infer<typeof PromptEntrySchema>;
/** promptfooconfig.yaml, as far as --from-promptfoo reads it. */
export type PromptfooConfig = z.infer<typeof PromptfooConfigSchema>;

/** Reads and checks promptfooconfig.yaml; a file that is not one is a UsageError of --from-promptfoo. */
export async function readPromptfooConfig(file: string): Promise<PromptfooConfig> {
  const text = await readFile(file, 'utf8').catch((error: unknown) => {
    throw new UsageError(
      '--from-promptfoo',
      `cannot read ${file}: ${errorMessage(error)}`,
      'give the path of a promptfooconfig.yaml',
    );
  });
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (error) {
    throw new UsageError(
      '--from-promptfoo',
      `${file} is not valid YAML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    );
  }
  const checked = PromptfooConfigSchema.safeParse(raw);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new UsageError(
      '--from-promptfoo',
      `${file} is not a promptfoo config: ${issue ? `${issue.path.join('.') || 'the document'}: ${issue.message}` : 'unreadable'}`,
      'it needs prompts, providers and tests as promptfoo documents them',
    );
  }
  return checked.data;
}

import { z } from 'zod';
import { addConfigIssue } from './add-config-issue.js';
import { InstructionsSchema } from './instructions-schema.js';
import { LLMProviderSchema } from './llm-provider-schema.js';

/** A variant's name: used in reports, flags (`--variants a,b`) and addresses, so no commas or spaces. */
export const VARIANT_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:@+=/-]*$/;

const VariantNameSchema = z
  .string()
  .max(64)
  .regex(VARIANT_NAME_PATTERN, {
    error: 'must start with a letter or digit and hold only letters, digits and . _ : @ + = / -',
  })
  .describe('The name reports and `--variants` use; derived from the overrides when absent.');

/**
 * The model fields a variant overrides. Without `provider` (or with the agent's own) they are
 * merged over agent.yaml's `model`; with another provider they replace it, since one provider's
 * endpoint, key or deployment means nothing to another.
 */
export const ModelOverrideSchema = z
  .strictObject(LLMProviderSchema.shape)
  .partial()
  .describe("Fields of model: merged over the agent's model, or replacing it when provider changes.");

const TemperatureSchema = z.number().min(0).max(2).describe('model.temperature of this variant.');
const MaxTurnsSchema = z.int().min(1).describe('max_turns of this variant.');

/** One named variant: the fields of agent.yaml it runs with instead of the agent's own. */
export const MatrixVariantSchema = z
  .strictObject({
    name: VariantNameSchema.optional(),
    model: ModelOverrideSchema.optional(),
    instructions: InstructionsSchema.optional().describe('The system prompt of this variant.'),
    temperature: TemperatureSchema.optional(),
    max_turns: MaxTurnsSchema.optional(),
  })
  .superRefine((variant, context) => {
    if (variant.temperature !== undefined && variant.model?.temperature !== undefined)
      addConfigIssue(
        context,
        ['temperature'],
        'temperature is set twice in this variant, here and in model.temperature',
        'keep one of them',
      );
  });
/** A `matrix.variants` entry. */
export type MatrixVariantConfig = z.infer<typeof MatrixVariantSchema>;

/** The axes of a cross product: every combination of one entry per axis is a variant. */
const AXES = ['models', 'instructions', 'temperature', 'max_turns'] as const;

/**
 * `matrix:` (and `holodeck test --matrix`): the suite runs once per variant, in one run. Either a
 * list of `variants`, each overriding fields, or axes whose cross product makes the variants
 * (promptfoo's providers × prompts), never both.
 */
export const MatrixSchema = z
  .strictObject({
    variants: z
      .array(MatrixVariantSchema)
      .min(1)
      .optional()
      .describe('Named variants, each overriding fields.'),
    models: z
      .array(ModelOverrideSchema)
      .min(1)
      .optional()
      .describe('Axis: model alternatives (fields of model, as in a variant).'),
    instructions: z
      .array(InstructionsSchema)
      .min(1)
      .optional()
      .describe('Axis: system prompt alternatives (file or inline).'),
    temperature: z.array(TemperatureSchema).min(1).optional().describe('Axis: temperatures.'),
    max_turns: z.array(MaxTurnsSchema).min(1).optional().describe('Axis: max_turns values.'),
  })
  .superRefine((matrix, context) => {
    const axes = AXES.filter((axis) => matrix[axis] !== undefined);
    if (matrix.variants !== undefined && axes.length > 0)
      addConfigIssue(
        context,
        [axes[0] ?? 'variants'],
        `set either variants or axes (${AXES.join(', ')}), not both`,
        'list every combination under variants, or drop variants and let the axes cross',
      );
    if (matrix.variants === undefined && axes.length === 0)
      addConfigIssue(
        context,
        [],
        'a matrix needs variants or at least one axis',
        `add variants: [{name: a, model: {...}}, ...], or an axis: ${AXES.join(', ')}`,
      );
    const seen = new Map<string, number>();
    for (const [index, variant] of (matrix.variants ?? []).entries()) {
      if (variant.name === undefined) continue;
      const earlier = seen.get(variant.name);
      if (earlier !== undefined)
        addConfigIssue(
          context,
          ['variants', index, 'name'],
          `duplicate variant name "${variant.name}"`,
          `variants[${earlier}] has it already: give each variant its own name`,
        );
      else seen.set(variant.name, index);
    }
  })
  .describe(
    '`holodeck test` runs the suite once per variant, side by side in one run: named variants, or the cross product of axes.',
  );
/** The `matrix:` block. */
export type MatrixConfig = z.infer<typeof MatrixSchema>;

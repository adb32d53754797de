import { z } from 'zod';
import { addConfigIssue } from './add-config-issue.js';
import { CaseVarsSchema } from './evaluation-config-schema.js';

/** The system prompt: inline text or a file next to agent.yaml, exactly one of the two. */
export const InstructionsSchema = z
  .strictObject({
    inline: z.string().min(1).optional().describe('The system prompt itself.'),
    file: z.string().min(1).optional().describe('Path relative to agent.yaml.'),
    vars: CaseVarsSchema.optional().describe(
      'Values of {{name}} placeholders in the instructions (inline or file); a placeholder without one is an error.',
    ),
  })
  .describe('The system prompt: inline text or a file, exactly one of the two.')
  .superRefine((instructions, context) => {
    if (instructions.inline !== undefined && instructions.file !== undefined) {
      addConfigIssue(
        context,
        [],
        'set either "inline" or "file", not both',
        'keep one of instructions.inline and instructions.file',
      );
    }
    if (instructions.inline === undefined && instructions.file === undefined) {
      addConfigIssue(
        context,
        [],
        'instructions need "inline" or "file"',
        'add inline: <the system prompt>, or file: instructions.md',
      );
    }
  });
/** The `instructions:` block. */
export type InstructionsConfig = z.infer<typeof InstructionsSchema>;

import { z } from 'zod';
import { addConfigIssue } from './add-config-issue.js';
import { ClaudeConfigSchema } from './claude-config-schema.js';
import { DefaultCaseSchema, EvaluationConfigSchema, TestCaseSchema } from './evaluation-config-schema.js';
import { GovernanceConfigSchema } from './governance-config-schema.js';
import { InstructionsSchema } from './instructions-schema.js';
import { LLMProviderSchema } from './llm-provider-schema.js';
import { MatrixSchema } from './matrix-config-schema.js';
import { ObservabilityConfigSchema, ToolFilteringConfigSchema } from './observability-config-schema.js';
import { OptimizeConfigSchema } from './optimize-config-schema.js';
import { PricingSchema } from './pricing-schema.js';
import { ServeConfigSchema } from './serve-config-schema.js';
import { ToolConfigSchema } from './tool-config-schema.js';

export { type InstructionsConfig, InstructionsSchema } from './instructions-schema.js';

/** A JSON Schema the final answer must match: inline, or a path to a .json/.yaml file holding one. */
export const ResponseFormatSchema = z
  .union([
    z.record(z.string(), z.unknown()),
    z.string().regex(/\.(json|ya?ml)$/, { error: 'must be a path to a .json, .yaml or .yml file' }),
  ])
  .describe('A JSON Schema the final answer must match (structured output): inline, or a .json/.yaml file.');

/** An agent.yaml. Every mapping is strict: unknown keys are errors. */
export const AgentConfigSchema = z
  .strictObject({
    name: z
      .string()
      .max(100)
      .regex(/^[A-Za-z][A-Za-z0-9-]*$/, {
        error: 'must start with a letter and contain only letters, digits and "-"',
      })
      .describe('The agent name: 1-100 letters, digits and hyphens, starting with a letter.'),
    description: z.string().optional().describe('What the agent does, for people.'),
    author: z.string().optional().describe('Who maintains the agent.'),
    model: LLMProviderSchema.describe('The model the agent runs on.'),
    pricing: PricingSchema.optional(),
    instructions: InstructionsSchema,
    response_format: ResponseFormatSchema.optional(),
    max_turns: z
      .int()
      .min(1)
      .optional()
      .describe(
        'Most model turns (steps) one run may take, on every provider. Default: none on the Claude backend, 20 on the others. Replaces claude.max_turns.',
      ),
    tools: z
      .array(ToolConfigSchema)
      .optional()
      .describe('Tools the agent may call: function, mcp, vectorstore, hierarchical_document.'),
    embedding_provider: LLMProviderSchema.optional().describe(
      'Model for embeddings; required with provider anthropic and vectorstore or hierarchical_document tools.',
    ),
    claude: ClaudeConfigSchema.optional(),
    governance: GovernanceConfigSchema.optional().describe(
      'Novarch governance of tool calls: reads become evidence, writes are judged by team rules.',
    ),
    observability: ObservabilityConfigSchema.optional().describe('OpenTelemetry traces, metrics and logs.'),
    serve: ServeConfigSchema.optional(),
    tool_filtering: ToolFilteringConfigSchema.optional().describe(
      'Offer only the tools most similar to the request (not on provider anthropic: use claude.allowed_tools).',
    ),
    evaluations: EvaluationConfigSchema.optional().describe(
      'How `holodeck test` grades: the judge model and the default metrics.',
    ),
    test_cases: z.array(TestCaseSchema).optional().describe('The test cases `holodeck test` runs.'),
    // Schema only: the test runner reads the file (and checks it) when it runs.
    test_cases_file: z
      .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
      .optional()
      .describe(
        'Files of test cases, relative to agent.yaml: YAML, JSON, JSONL or CSV; a path, a glob (cases/*.csv) or a list of them.',
      ),
    default_case: DefaultCaseSchema.optional().describe(
      'Settings every test case takes unless it sets its own (vars and thresholds merge, tags add up).',
    ),
    optimize: OptimizeConfigSchema.optional(),
    matrix: MatrixSchema.optional(),
  })
  .superRefine((config, context) => {
    if (config.max_turns !== undefined && config.claude?.max_turns !== undefined) {
      addConfigIssue(
        context,
        ['claude', 'max_turns'],
        'max_turns is set twice, at the top level and in the claude block',
        'keep the top-level max_turns (it serves every provider) and remove claude.max_turns',
      );
    }
    const toolNames = (config.tools ?? []).map((tool) => tool.name);
    for (const name of Object.keys(config.optimize?.tool_descriptions ?? {}))
      if (!toolNames.includes(name))
        addConfigIssue(
          context,
          ['optimize', 'tool_descriptions', name],
          `no tool is named "${name}"`,
          toolNames.length ? `the tools are ${toolNames.join(', ')}` : 'this agent has no tools',
        );
  })
  .meta({
    title: 'HoloDeck agent.yaml',
    description: 'An AI agent: model, instructions, tools, evaluations and test cases.',
  });
/** A parsed agent.yaml (defaults applied). */
export type AgentConfig = z.infer<typeof AgentConfigSchema>;

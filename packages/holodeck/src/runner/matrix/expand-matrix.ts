import path from 'node:path';
import { type FieldIssue, type FieldPath, formatFieldPath, mapZodIssues } from 'yaml-diagnostics';
import { backendProfile, checkBackendConfig } from '../../backends/select-backend.js';
import type { AgentConfig, ConfigWarning, InstructionsConfig, LoadedAgent } from '../../config/index.js';
import { loadReferencedFiles } from '../../config/load-referenced-files.js';
import { resolveAgentConfig } from '../../config/resolve-agent-config.js';
import { LLMProviderSchema } from '../../config/schema/llm-provider-schema.js';
import type { MatrixConfig } from '../../config/schema/matrix-config-schema.js';
import { checkStartupRules } from '../../config/startup-rules.js';
import type { ConfigIssue } from '../../errors.js';
import { issueAt as caseIssueAt } from '../case-source.js';
import type { MatrixSource, MatrixVariant, VariantOverrides } from './matrix-variant.js';

/** A variant before it is checked: its overrides and where each was written. */
interface PlannedVariant {
  given?: string;
  overrides: VariantOverrides;
  /** Field paths (below the matrix) of the variant and of each override. */
  at: {
    variant: FieldPath;
    model?: FieldPath;
    instructions?: FieldPath;
    temperature?: FieldPath;
    maxTurns?: FieldPath;
  };
}

/** What expandMatrix found: the variants when every one of them is valid, and the problems otherwise. */
export interface MatrixExpansion {
  variants?: MatrixVariant[];
  issues: ConfigIssue[];
  /** Warnings of the variants' own backends about their settings, each naming its variant. */
  warnings: ConfigWarning[];
  /**
   * Credentials a variant's provider needs and the environment lacks, one per variant, located at
   * the variant. `holodeck test` refuses to start with any; `holodeck validate` warns (it often
   * runs without secrets).
   */
  missingCredentials: ConfigIssue[];
}

/**
 * Turns a `matrix:` (or `--matrix`) into the agents it runs: named variants as listed, or the
 * cross product of the axes in the order written (models, instructions, temperature, max_turns).
 * Each variant's agent.yaml is checked as agent.yaml is (model schema, provider-neutral and backend
 * startup rules, its instructions file), every problem located where the variant is written.
 */
export async function expandMatrix(
  agent: LoadedAgent,
  matrix: MatrixConfig,
  source: MatrixSource,
): Promise<MatrixExpansion> {
  const issues: ConfigIssue[] = [];
  const warnings: ConfigWarning[] = [];
  const missingCredentials: ConfigIssue[] = [];
  const issueAt = (field: FieldPath, message: string, hint?: string): ConfigIssue =>
    caseIssueAt(source, field, message, hint);
  const planned = planVariants(matrix);
  const names = variantNames(planned, agent.config);
  const firstOf = new Map<string, number>();
  for (const [index, name] of names.entries()) {
    const earlier = firstOf.get(name);
    const variant = planned[index];
    if (earlier === undefined || !variant) {
      firstOf.set(name, index);
      continue;
    }
    issues.push(
      issueAt(
        variant.at.variant,
        `two variants are both named "${name}"`,
        `the name is derived from what they override; give them names: list them under variants: with name: each`,
      ),
    );
  }
  const variants: MatrixVariant[] = [];
  for (const [index, plan] of planned.entries()) {
    const name = names[index] ?? `variant-${index + 1}`;
    const built = await buildVariant(agent, plan, name, source.directory);
    for (const issue of built.issues) issues.push(issueAt(issue.path, issue.message, issue.hint));
    if (!built.agent) continue;
    const profile = backendProfile(built.agent.config.model.provider);
    warnings.push(
      ...built.agent.warnings.filter(
        (warning) => !agent.warnings.some((base) => base.code === warning.code && base.path === warning.path),
      ),
    );
    for (const warning of profile.credentialWarnings(built.agent))
      missingCredentials.push(
        issueAt(
          plan.at.model ?? plan.at.variant,
          `variant "${name}": ${warning.message.replace(/: `holodeck chat` will stop until it is\.$/, '')}`,
          'set it in the environment or in .env next to agent.yaml, or leave this variant out of the matrix',
        ),
      );
    variants.push({ name, overrides: plan.overrides, agent: built.agent, backend: profile.name });
  }
  if (issues.length) return { issues, warnings, missingCredentials };
  return { variants, issues, warnings, missingCredentials };
}

/** The variants as written: the list, or the cross product of the axes. */
function planVariants(matrix: MatrixConfig): PlannedVariant[] {
  if (matrix.variants)
    return matrix.variants.map((variant, index) => {
      const at: PlannedVariant['at'] = { variant: ['variants', index] };
      const overrides: VariantOverrides = {};
      if (variant.model) {
        overrides.model = variant.model;
        at.model = ['variants', index, 'model'];
      }
      if (variant.instructions) {
        overrides.instructions = variant.instructions;
        at.instructions = ['variants', index, 'instructions'];
      }
      if (variant.temperature !== undefined) {
        overrides.temperature = variant.temperature;
        at.temperature = ['variants', index, 'temperature'];
      }
      if (variant.max_turns !== undefined) {
        overrides.max_turns = variant.max_turns;
        at.maxTurns = ['variants', index, 'max_turns'];
      }
      return { ...(variant.name !== undefined ? { given: variant.name } : {}), overrides, at };
    });
  let plans: PlannedVariant[] = [{ overrides: {}, at: { variant: [] } }];
  const cross = <T>(
    values: readonly T[] | undefined,
    axis: string,
    apply: (plan: PlannedVariant, value: T, at: FieldPath) => void,
  ) => {
    if (!values) return;
    plans = plans.flatMap((plan) =>
      values.map((value, index) => {
        const next: PlannedVariant = { overrides: { ...plan.overrides }, at: { ...plan.at } };
        // A combination is located at its first axis entry.
        if (next.at.variant.length === 0) next.at.variant = [axis, index];
        apply(next, value, [axis, index]);
        return next;
      }),
    );
  };
  cross(matrix.models, 'models', (plan, model, at) => {
    plan.overrides.model = model;
    plan.at.model = at;
  });
  cross(matrix.instructions, 'instructions', (plan, instructions, at) => {
    plan.overrides.instructions = instructions;
    plan.at.instructions = at;
  });
  cross(matrix.temperature, 'temperature', (plan, temperature, at) => {
    plan.overrides.temperature = temperature;
    plan.at.temperature = at;
  });
  cross(matrix.max_turns, 'max_turns', (plan, maxTurns, at) => {
    plan.overrides.max_turns = maxTurns;
    plan.at.maxTurns = at;
  });
  return plans;
}

/**
 * Each variant's name: given, or its overrides joined by `/`: the model's name (with its provider
 * when two models of the axis share a name), the instructions file's base name (`inline-2` for the
 * second inline text), `t<temperature>`, `turns<n>`; `base` when it overrides nothing.
 */
export function variantNames(
  planned: readonly { given?: string; overrides: VariantOverrides }[],
  base: AgentConfig,
): string[] {
  const modelNames = planned.map((plan) => plan.overrides.model?.name ?? base.model.name);
  const inlineTexts: string[] = [];
  return planned.map((plan) => {
    if (plan.given !== undefined) return plan.given;
    const { model, instructions, temperature, max_turns: maxTurns } = plan.overrides;
    const parts: string[] = [];
    if (model) {
      const name = model.name ?? base.model.name;
      const provider = model.provider ?? base.model.provider;
      const shared = planned.some(
        (other, index) =>
          modelNames[index] === name && (other.overrides.model?.provider ?? base.model.provider) !== provider,
      );
      parts.push(shared ? `${provider}:${name}` : name);
    }
    if (instructions) parts.push(instructionsLabel(instructions, inlineTexts));
    if (temperature !== undefined) parts.push(`t${temperature}`);
    if (maxTurns !== undefined) parts.push(`turns${maxTurns}`);
    const joined = parts
      .join('/')
      .replace(/[^A-Za-z0-9._:@+=/-]+/g, '-')
      .replace(/^[^A-Za-z0-9]+/, '');
    return joined.slice(0, 64) || 'base';
  });
}

function instructionsLabel(instructions: InstructionsConfig, inlineTexts: string[]): string {
  if (instructions.file !== undefined) return path.basename(instructions.file).replace(/\.[^.]+$/, '');
  const text = instructions.inline ?? '';
  if (!inlineTexts.includes(text)) inlineTexts.push(text);
  return `inline-${inlineTexts.indexOf(text) + 1}`;
}

/** A variant's agent: the overrides applied to agent.yaml as loaded, checked like agent.yaml. */
async function buildVariant(
  agent: LoadedAgent,
  plan: PlannedVariant,
  name: string,
  directory: string,
): Promise<{ agent?: LoadedAgent; issues: FieldIssue[] }> {
  const issues: FieldIssue[] = [];
  const { overrides, at } = plan;
  const base = agent.config.model;
  const override = overrides.model;
  // Another provider's endpoint, key or deployment would mean nothing: a new provider starts afresh.
  const replaces = override?.provider !== undefined && override.provider !== base.provider;
  const merged = {
    ...(replaces ? {} : base),
    ...override,
    ...(overrides.temperature !== undefined ? { temperature: overrides.temperature } : {}),
  };
  const model = LLMProviderSchema.safeParse(merged);
  if (!model.success) {
    for (const issue of mapZodIssues(model.error.issues, { schema: LLMProviderSchema, data: merged })) {
      const field = String(issue.path[0] ?? '');
      const fromTemperature = field === 'temperature' && overrides.temperature !== undefined;
      const where = fromTemperature ? at.temperature : at.model;
      issues.push({
        ...issue,
        path: [...(where ?? at.variant), ...(fromTemperature ? [] : issue.path)],
        message: `variant "${name}": ${issue.message.replace(/ at the top level$/, ' in model')}`,
        ...(replaces && issue.message.startsWith('missing required key')
          ? {
              hint: `the variant changes the provider to ${override?.provider}, so its model is not merged with agent.yaml's: write every field it needs`,
            }
          : {}),
      });
    }
    return { issues };
  }
  const temperatureAt =
    overrides.temperature !== undefined
      ? at.temperature
      : override?.temperature !== undefined
        ? at.model
        : undefined;
  if (model.data.provider === 'anthropic' && temperatureAt !== undefined) {
    issues.push({
      path: overrides.temperature !== undefined ? temperatureAt : [...temperatureAt, 'temperature'],
      message: `variant "${name}" runs on provider anthropic, and the Claude Agent SDK has no temperature setting: it would have no effect`,
      hint: 'give a temperature only to variants of other providers (list the combinations under variants:)',
    });
  }

  let instructions = agent.instructions;
  let instructionsConfig = agent.config.instructions;
  if (overrides.instructions) {
    const where = at.instructions ?? at.variant;
    const written = overrides.instructions;
    instructionsConfig =
      written.file !== undefined ? { file: path.resolve(directory, written.file) } : written;
    const files = await loadReferencedFiles({ instructions: instructionsConfig }, directory);
    for (const issue of files.issues)
      issues.push({
        ...issue,
        path: [...where, ...issue.path.slice(1)],
        message: `variant "${name}": ${issue.message}`,
      });
    if (files.instructions !== undefined) instructions = files.instructions;
  }

  const { matrix: _matrix, ...rest } = agent.config;
  const claude =
    rest.claude && overrides.max_turns !== undefined ? withoutMaxTurns(rest.claude) : rest.claude;
  const config: AgentConfig = resolveAgentConfig(
    {
      ...rest,
      model: model.data,
      instructions: instructionsConfig,
      ...(overrides.max_turns !== undefined ? { max_turns: overrides.max_turns } : {}),
      ...(claude ? { claude } : {}),
    },
    agent.directory,
  );
  // The agent as written passed these rules: what breaks them now is what the variant changed.
  const neutral = checkStartupRules(config);
  const backend = await checkBackendConfig(config);
  for (const issue of [...neutral.issues, ...backend.issues])
    issues.push({
      path: locateOverride(issue.path, at),
      message: `variant "${name}" (provider ${config.model.provider}): ${formatFieldPath(issue.path)}: ${issue.message}`,
      ...(issue.hint ? { hint: issue.hint } : {}),
    });
  if (issues.length) return { issues };
  const warnings: ConfigWarning[] = [...neutral.warnings, ...backend.warnings].map((warning) => ({
    code: warning.code,
    message: `variant "${name}": ${warning.message}`,
    path: formatFieldPath(warning.path),
    file: agent.file,
  }));
  return {
    issues,
    agent: { ...agent, config, instructions, warnings },
  };
}

/** A rule's field path, moved to the override it is about, else to the variant. */
function locateOverride(field: FieldPath, at: PlannedVariant['at']): FieldPath {
  if (field[0] === 'model' && at.model) return field.length > 1 ? [...at.model, ...field.slice(1)] : at.model;
  if (field[0] === 'model' && field[1] === 'temperature' && at.temperature) return at.temperature;
  if (field[0] === 'instructions' && at.instructions) return at.instructions;
  if (field[0] === 'max_turns' && at.maxTurns) return at.maxTurns;
  return at.variant;
}

function withoutMaxTurns<T extends { max_turns?: number }>(claude: T): T {
  const { max_turns: _maxTurns, ...rest } = claude;
  return rest as T;
}

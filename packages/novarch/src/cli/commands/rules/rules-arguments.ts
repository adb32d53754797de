import { z } from 'zod';
import { OperatorUsageError, RulesError } from '../../../errors.js';
import { validateRulesFile } from '../../../rules/load-rules-file.js';
import { resolveUserPath } from '../../../rules/novarch-config.js';
import type { RuleSet } from '../../../rules/rule-set.js';
import type { OperatorContext } from '../operator-context.js';

export const TENANT_HELP = 'with --server: the tenant whose team it is (the rules of a tenant are its own)';

const versionArgument = z
  .string()
  .regex(/^v?[1-9][0-9]*$/, 'expected a version number such as 3 or v3')
  .transform((value) => Number(value.replace(/^v/, '')));

/** A version argument (`3` or `v3`), or a usage error naming the command. */
export function parseVersion(command: string, value: string): number {
  const parsed = versionArgument.safeParse(value);
  if (!parsed.success) {
    throw new OperatorUsageError(
      `novarch rules ${command}: expected a version number such as 3 or v3; got ${JSON.stringify(value)}.`,
    );
  }
  return parsed.data;
}

/** Loads a rules file for a command, or throws its RulesError; `team` must be the file's. */
export async function loadRulesFor(
  file: string,
  context: OperatorContext,
  team: string | undefined,
): Promise<RuleSet> {
  const absolute = resolveUserPath(file, context.cwd, context.homeDirectory);
  const validation = await validateRulesFile(absolute);
  if (validation.ruleSet === undefined) throw new RulesError(validation.issues);
  if (team !== undefined && team !== validation.ruleSet.team) {
    throw new OperatorUsageError(
      `--team ${team}: ${absolute} holds the rules of team "${validation.ruleSet.team}" (its team: key). Pass --team ${validation.ruleSet.team}, or change team: in the file.`,
    );
  }
  return validation.ruleSet;
}

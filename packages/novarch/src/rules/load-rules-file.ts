import { mapZodIssues } from 'yaml-diagnostics';
import { type NovarchFileIssue, RulesError } from '../errors.js';
import { rulesContentHash } from '../model/rules-content-hash.js';
import { checkRulesFile, declaredActionTypes } from './check-rules-file.js';
import { type RuleSet, RulesFileSchema, toRuleSet } from './rule-set.js';
import { locateIssues, parseYamlSource, readYamlFile } from './yaml/read-yaml-file.js';

const WHAT = {
  noun: 'rules file',
  example:
    'a rules file has team:, action_types: [...] and rules: (each with id, version, description, applies_to, on_violation, and optionally condition, mode, approvals and approvers)',
};

/** What validateRulesFile found in one rules file. */
export interface RulesFileValidation {
  /** Set only when there are no issues. */
  ruleSet?: RuleSet;
  /**
   * The names the file lists in `action_types`, also when other parts of it are broken, so a caller
   * can check its own action types against them in the same pass. Absent when the file cannot be
   * read or parsed, or has no `action_types` list.
   */
  actionTypes?: string[];
  issues: NovarchFileIssue[];
}

/** Checks one rules file; `ruleSet` is set only when there are no issues. Never throws for bad input. */
export async function validateRulesFile(file: string): Promise<RulesFileValidation> {
  return validateParsedRules(await readYamlFile(file, WHAT), null);
}

/**
 * Checks a rules file's text as `validateRulesFile` checks a file: `name` stands for the file in
 * messages and in `RuleSet.file`; `version` is the stored version it is (null: not a stored one).
 */
export function validateRulesSource(
  source: string,
  name: string,
  version: number | null = null,
): RulesFileValidation {
  return validateParsedRules(parseYamlSource(source, name, WHAT), version);
}

function validateParsedRules(
  read: Awaited<ReturnType<typeof readYamlFile>>,
  version: number | null,
): RulesFileValidation {
  if (!read.ok) return { issues: read.issues };
  const { yaml } = read;
  const actionTypes = declaredActionTypes(yaml.data);
  const declared = actionTypes === undefined ? {} : { actionTypes };
  const parsed = RulesFileSchema.safeParse(yaml.data);
  const fieldIssues = [
    ...yaml.duplicateKeys,
    ...(parsed.success
      ? []
      : mapZodIssues(parsed.error.issues, {
          schema: RulesFileSchema,
          data: yaml.data,
          terse: true,
        })),
    ...checkRulesFile(yaml),
  ];
  if (fieldIssues.length > 0 || !parsed.success)
    return { ...declared, issues: locateIssues(yaml, fieldIssues) };
  const ruleSet = toRuleSet(parsed.data, yaml.file, { version, contentHash: rulesContentHash(yaml.source) });
  return { ruleSet, actionTypes: ruleSet.actionTypes, issues: [] };
}

/**
 * Loads a team's rules file (YAML). Throws a RulesError listing every problem at once: malformed
 * YAML, unknown or missing fields, CEL errors in conditions, undeclared action types, duplicate ids.
 */
export async function loadRulesFile(file: string): Promise<RuleSet> {
  const result = await validateRulesFile(file);
  if (result.ruleSet === undefined) throw new RulesError(result.issues);
  return result.ruleSet;
}

/** Loads several rules files; one RulesError carries the problems of all of them. */
export async function loadRulesFiles(files: readonly string[]): Promise<RuleSet[]> {
  const results = await Promise.all(files.map((file) => validateRulesFile(file)));
  const issues = results.flatMap((result) => result.issues);
  if (issues.length > 0) throw new RulesError(issues);
  return results.flatMap((result) => (result.ruleSet ? [result.ruleSet] : []));
}

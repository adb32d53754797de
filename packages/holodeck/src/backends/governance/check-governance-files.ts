import { loadNovarchConfig, NovarchConfigError, type NovarchFileIssue, validateRulesFile } from 'novarch';
import type { GovernanceFiles, GovernanceFilesReport } from '../../config/index.js';

/**
 * Checks a `governance:` block's files with the loaders a governed run uses (prepare-governance),
 * for `holodeck validate`: every problem Novarch reports, unchanged, plus the action types the rules
 * file declares (also when it has other problems, so write specs are checked in the same pass).
 * Imports novarch, so load this module lazily, and only for governed agents.
 */
export async function checkGovernanceFiles(files: GovernanceFiles): Promise<GovernanceFilesReport> {
  const [configIssues, rules] = await Promise.all([
    checkConfigFile(files.configFile),
    files.rulesFile === undefined ? undefined : validateRulesFile(files.rulesFile),
  ]);
  return {
    issues: [...configIssues, ...(rules?.issues ?? [])],
    ...(rules?.actionTypes ? { actionTypes: rules.actionTypes } : {}),
    ...(rules?.ruleSet ? { team: rules.ruleSet.team } : {}),
  };
}

async function checkConfigFile(file: string | undefined): Promise<readonly NovarchFileIssue[]> {
  if (file === undefined) return [];
  try {
    await loadNovarchConfig(file);
    return [];
  } catch (error) {
    if (error instanceof NovarchConfigError) return error.issues;
    throw error;
  }
}

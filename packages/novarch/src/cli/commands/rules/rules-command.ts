import type { Command } from 'commander';
import type { OperatorContext, RunCommand } from '../operator-context.js';
import { registerRulesCalibrateCommands } from './rules-calibrate-command.js';
import { registerRulesDiffCommand } from './rules-diff-command.js';
import { registerRulesListCommand } from './rules-list-command.js';
import { registerRulesPushCommand } from './rules-push-command.js';
import { registerRulesReportCommand } from './rules-report-command.js';
import { registerRulesShowCommand } from './rules-show-command.js';
import { registerRulesTestCommand } from './rules-test-command.js';

/**
 * `novarch rules push|list|show|diff|test|report`, one file per subcommand. push, list, show and diff
 * work on a `RulesService`: the store's, or a server's with `--server` (`rules-service-for.ts`).
 */
export function registerRulesCommand(program: Command, run: RunCommand, context: OperatorContext): void {
  const rules = program
    .command('rules')
    .description("push the teams' rules files as versioned data, read and compare versions, replay a change");
  registerRulesPushCommand(rules, run, context);
  registerRulesListCommand(rules, run, context);
  registerRulesShowCommand(rules, run, context);
  registerRulesDiffCommand(rules, run, context);
  registerRulesTestCommand(rules, run, context);
  registerRulesReportCommand(rules, run, context);
  registerRulesCalibrateCommands(rules, run, context);
}

import { RE2JS } from 're2js';
import { errorMessage } from '../support.js';

// CEL's `matches()` is specified on RE2. The CEL library implements it with the JS RegExp, which
// backtracks: a plausible rule regex and a short agent string can take seconds, doubling per
// character, freezing the agent process. Conditions call this RE2 implementation instead (re2js:
// a pure-JS port of RE2, matching in time linear in the input): `compileCondition` renames each
// `.matches(...)` call of a parsed condition to `LINEAR_MATCHES` before it is checked.

/** The name the RE2 `matches` is registered under (never written in a rule). */
export const LINEAR_MATCHES = 'novarchRe2Matches';

const compiled = new Map<string, RE2JS>();
const MAX_CACHED = 500;

/** `text.matches(pattern)`: whether RE2 finds `pattern` anywhere in `text`, as CEL specifies. */
export function linearMatches(text: string, pattern: string): boolean {
  let regex = compiled.get(pattern);
  if (regex === undefined) {
    try {
      regex = RE2JS.compile(pattern);
    } catch (error) {
      const reason = errorMessage(error);
      throw new Error(`invalid regular expression for RE2 ${JSON.stringify(pattern)}: ${reason}`);
    }
    if (compiled.size >= MAX_CACHED) compiled.clear();
    compiled.set(pattern, regex);
  }
  return regex.matcher(text).find();
}

/** Renames every `x.matches(p)` call in a parsed CEL AST to the RE2 implementation. */
export function useLinearMatches(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) useLinearMatches(item);
    return;
  }
  if (typeof node !== 'object' || node === null || !('op' in node) || !('args' in node)) return;
  const args = node.args;
  if (node.op === 'rcall' && Array.isArray(args) && args[0] === 'matches') args[0] = LINEAR_MATCHES;
  useLinearMatches(args);
}

/** An error summary with the internal name put back as the rule wrote it. */
export function inRuleWords(summary: string): string {
  return summary.split(LINEAR_MATCHES).join('matches');
}

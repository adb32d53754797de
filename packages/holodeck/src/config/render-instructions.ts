import type { FieldIssue } from 'yaml-diagnostics';
import { isTemplate, renderTemplate, type TemplateScope } from './render-template.js';

/** The instructions' templates see `instructions.vars`, and only them (not a test case's vars). */
const INSTRUCTIONS_SCOPE: TemplateScope = {
  owner: 'instructions.vars',
  addHint: (name) => `add ${name} to instructions.vars in agent.yaml`,
  listed: 'instructions.vars has',
  none: 'instructions.vars is not set',
};

/** Line and column (1-based) of `offset` in `text`. */
function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

/**
 * The system prompt with its `{{ name }}` placeholders rendered from `instructions.vars`, in the
 * template language of test cases (config/render-template.ts: look-ups and filters, no code). A
 * placeholder naming a variable that is not set is an issue naming it: at `instructions.inline`,
 * or at the line and column of the instructions file (`file`, its absolute path). Text without
 * `{{` is returned as it is.
 */
export function renderInstructions(
  text: string,
  vars: Readonly<Record<string, unknown>>,
  file: string | undefined,
): { text: string } | { issue: FieldIssue } {
  if (!isTemplate(text)) return { text };
  const rendered = renderTemplate(text, vars, INSTRUCTIONS_SCOPE);
  if (rendered.ok) return { text: rendered.text };
  const { message, hint, offset } = rendered.problem;
  if (file === undefined) return { issue: { path: ['instructions', 'inline'], message, hint } };
  return {
    issue: { path: ['instructions', 'file'], message, hint, file, position: positionOf(text, offset) },
  };
}

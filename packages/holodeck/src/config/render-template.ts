/**
 * The template language of test cases: `{{ name }}` stands for the case's variable `name`. Only
 * look-ups, string literals and a few filters, never code:
 *
 * - `{{ city }}`, `{{ order.id }}`, `{{ items[0] }}`: a variable, a key of it, an item of it;
 * - `{{ "{{" }}`: a literal (in double quotes), the way to write `{{` itself;
 * - `{{ city | upper }}`: filters `upper`, `lower`, `trim`, `json` (the value as JSON), in a chain.
 *
 * A string renders as it is, a number or boolean as written, anything else as JSON. A variable
 * the case does not set is an error naming it (never an empty string).
 */

/** The filters a placeholder may apply, by name. */
const FILTERS: Record<string, (value: unknown) => unknown> = {
  upper: (value) => text(value).toUpperCase(),
  lower: (value) => text(value).toLowerCase(),
  trim: (value) => text(value).trim(),
  json: (value) => JSON.stringify(value),
};

/** The names of the template filters, for messages and docs. */
export const TEMPLATE_FILTERS = Object.keys(FILTERS);

/** Why a template could not be rendered. */
export interface TemplateProblem {
  message: string;
  hint: string;
  /** Index in the template of the `{{` of the placeholder at fault. */
  offset: number;
}

/**
 * Whose variables a template sees, for its messages: a test case's (the default) or the agent's
 * instructions'. Only the words change; the language and its rules are the same.
 */
export interface TemplateScope {
  /** Who does not set a missing variable, e.g. `the case`. */
  owner: string;
  /** Where to add a missing variable `name`, e.g. `add name to the case's vars`. */
  addHint: (name: string) => string;
  /** Said of the variables there are, e.g. `the case's vars are`; of none, `the case sets no vars`. */
  listed: string;
  none: string;
}

/** The scope of test cases' templates. */
export const CASE_SCOPE: TemplateScope = {
  owner: 'the case',
  addHint: (name) => `add ${name} to the case's vars (or to default_case.vars)`,
  listed: "the case's vars are",
  none: 'the case sets no vars',
};

/** A problem found before its offset is known (evaluate() sees one placeholder). */
type PlaceholderProblem = Omit<TemplateProblem, 'offset'>;

export type RenderResult = { ok: true; text: string } | { ok: false; problem: TemplateProblem };

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? '';
}

/** True when `value` holds a `{{`, so it is a template (rendering it may change it). */
export function isTemplate(value: string): boolean {
  return value.includes('{{');
}

const PATH = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])*$/;

function lookUp(path: string, vars: Readonly<Record<string, unknown>>): { found: boolean; value?: unknown } {
  const segments = path.match(/[A-Za-z_][A-Za-z0-9_]*|\[\d+\]/g) ?? [];
  let value: unknown = vars;
  for (const segment of segments) {
    const key = segment.startsWith('[') ? Number(segment.slice(1, -1)) : segment;
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return { found: false };
    value = (value as Record<string | number, unknown>)[key];
  }
  return { found: true, value };
}

function describeVars(vars: Readonly<Record<string, unknown>>, scope: TemplateScope): string {
  const names = Object.keys(vars);
  return names.length ? `${scope.listed} ${names.join(', ')}` : scope.none;
}

function evaluate(
  expression: string,
  vars: Readonly<Record<string, unknown>>,
  scope: TemplateScope,
): { ok: true; value: unknown } | { ok: false; problem: PlaceholderProblem } {
  const [head = '', ...filters] = expression.split('|').map((part) => part.trim());
  let value: unknown;
  const literal = /^"((?:[^"\\]|\\.)*)"$/.exec(head);
  if (literal) value = JSON.parse(`"${literal[1]}"`);
  else if (PATH.test(head)) {
    const found = lookUp(head, vars);
    if (!found.found) {
      const root = head.match(/^[A-Za-z_][A-Za-z0-9_]*/)?.[0] ?? head;
      return {
        ok: false,
        problem: {
          message:
            root === head || !Object.hasOwn(vars, root)
              ? `{{ ${head} }} names variable "${root}", which ${scope.owner} does not set`
              : `{{ ${head} }}: variable "${root}" has no ${head.slice(root.length)}`,
          hint: `${scope.addHint(root)}; ${describeVars(vars, scope)}`,
        },
      };
    }
    value = found.value;
  } else
    return {
      ok: false,
      problem: {
        message: `{{ ${expression} }} is not a variable name`,
        hint: 'a placeholder holds a variable (name, name.key, name[0]) or a "quoted text", then | filters; templates run no code',
      },
    };
  for (const filter of filters) {
    const apply = FILTERS[filter];
    if (!apply)
      return {
        ok: false,
        problem: {
          message: `{{ ${expression} }} uses unknown filter "${filter}"`,
          hint: `the filters are ${TEMPLATE_FILTERS.join(', ')}`,
        },
      };
    value = apply(value);
  }
  return { ok: true, value };
}

/** Renders `template` with `vars`: every `{{ ... }}` replaced, or the first problem. */
export function renderTemplate(
  template: string,
  vars: Readonly<Record<string, unknown>>,
  scope: TemplateScope = CASE_SCOPE,
): RenderResult {
  let output = '';
  let position = 0;
  while (position < template.length) {
    const open = template.indexOf('{{', position);
    if (open < 0) break;
    // A quoted literal may hold }}: the closing braces are the first outside double quotes.
    let close = -1;
    let quoted = false;
    for (let index = open + 2; index < template.length - 1; index++) {
      const char = template[index];
      if (quoted && char === '\\') index++;
      else if (char === '"') quoted = !quoted;
      else if (!quoted && char === '}' && template[index + 1] === '}') {
        close = index;
        break;
      }
    }
    if (close < 0)
      return {
        ok: false,
        problem: {
          message: `"{{" at character ${open + 1} is never closed with "}}"`,
          hint: 'close the placeholder, or write a literal {{ as {{ "{{" }}',
          offset: open,
        },
      };
    const result = evaluate(template.slice(open + 2, close).trim(), vars, scope);
    if (!result.ok) return { ok: false, problem: { ...result.problem, offset: open } };
    output += template.slice(position, open) + text(result.value);
    position = close + 2;
  }
  return { ok: true, text: output + template.slice(position) };
}

import path from 'node:path';
import { renderTemplate } from '../../config/index.js';
import { agentNameFrom } from '../plan-agent-folder.js';
import { mapPromptfooAssertion, type PromptfooAssertion } from './map-promptfoo-assertion.js';
import type { PromptfooConfig, PromptfooTest } from './read-promptfoo-config.js';
import { TestSchema } from './read-promptfoo-config.js';
import { type PromptfooTestEntry, readPromptfooTests } from './read-promptfoo-tests.js';

/** Replaces `{{ name }}` with the variable; a filter or a tag (`{{ x | upper }}`, `{% if %}`) is not rendered. */
function renderVars(template: string, vars: Record<string, unknown>): { text: string; unresolved: string[] } {
  const unresolved: string[] = [];
  const text = template.replace(/\{\{\s*([^}]*?)\s*\}\}/g, (whole, expression: string) => {
    const value = vars[expression];
    if (/^[A-Za-z_][\w]*$/.test(expression) && value !== undefined)
      return typeof value === 'string' ? value : JSON.stringify(value);
    unresolved.push(whole);
    return whole;
  });
  if (/\{%/.test(text)) unresolved.push('{% … %} tags');
  return { text, unresolved };
}

function uniqueName(base: string, taken: Set<string>): string {
  let name = agentNameFrom(base).slice(0, 60) || 'case';
  for (let index = 2; taken.has(name); index++) name = `${agentNameFrom(base).slice(0, 60)}-${index}`;
  taken.add(name);
  return name;
}

/** The tests of a suite as HoloDeck cases: inline ones, and one cases file per `file://` reference. */
export interface ConvertedTests {
  testCases: Record<string, unknown>[];
  /** Tests from `file://` references: one converted cases file each, under cases/. */
  caseFiles: { path: string; cases: Record<string, unknown>[] }[];
}

/** What converting the tests reads and adds to. */
interface TestConversion {
  config: PromptfooConfig;
  /** The user template of the prompt: each case's input. */
  userTemplate: string;
  folder: string;
  defaultVars: Record<string, unknown>;
  /** Case names already given. */
  taken: Set<string>;
  notConverted: string[];
  caseFiles: ConvertedTests['caseFiles'];
}

function mapAssertions(
  conversion: TestConversion,
  assertions: PromptfooAssertion[],
  where: string,
  vars: Record<string, unknown>,
) {
  return assertions.flatMap((assertion) => {
    const rendered =
      typeof assertion.value === 'string'
        ? { ...assertion, value: renderVars(assertion.value, vars).text }
        : assertion;
    const mapped = mapPromptfooAssertion(rendered);
    if (mapped.ok) return [mapped.metric];
    conversion.notConverted.push(`${where}: ${mapped.reason}`);
    return [];
  });
}

/** One promptfoo test as a HoloDeck case: vars stay vars where HoloDeck's templates render the prompt. */
function convertTest(conversion: TestConversion, test: PromptfooTest, where: string, index: number) {
  const { config, userTemplate, notConverted } = conversion;
  const ownVars = test.vars ?? {};
  const vars = { ...conversion.defaultVars, ...ownVars };
  for (const [name, value] of Object.entries(ownVars))
    if (Array.isArray(value)) notConverted.push(`${where}: vars.${name} is a list (a promptfoo matrix)`);
    else if (typeof value === 'string' && value.startsWith('file://'))
      notConverted.push(`${where}: vars.${name} is read from a file (${value}): copy its text in`);
  const listVars = Object.values(vars).some(Array.isArray);
  const promptfooOnly = renderVars(userTemplate, vars).unresolved;
  // The prompt as a template over the case's vars (and default_case's), as promptfoo keeps it,
  // when HoloDeck's template language renders it; otherwise rendered here, as written.
  const templated = !listVars && !promptfooOnly.length && renderTemplate(userTemplate, vars).ok;
  const input = templated ? { text: userTemplate, unresolved: [] } : renderVars(userTemplate, vars);
  if (input.unresolved.length)
    notConverted.push(`${where}: the prompt's ${input.unresolved.join(', ')} left as written`);
  for (const key of Object.keys(test))
    if (!['description', 'vars', 'assert'].includes(key)) notConverted.push(`${where}: ${key}`);
  const metrics = [
    ...mapAssertions(conversion, test.assert ?? [], where, vars),
    ...mapAssertions(conversion, config.defaultTest?.assert ?? [], `${where}, defaultTest.assert`, vars),
  ];
  return {
    name: uniqueName(test.description ?? `case-${index + 1}`, conversion.taken),
    input: input.text,
    ...(templated && Object.keys(ownVars).length ? { vars: ownVars } : {}),
    ...(metrics.length ? { metrics } : {}),
  };
}

/** The tests of a `file://` reference, one cases file per file it names. */
async function readTests(conversion: TestConversion, reference: string, where: string): Promise<void> {
  const { notConverted, caseFiles } = conversion;
  if (!reference.startsWith('file://')) {
    notConverted.push(`${where}: "${reference}" (not a file:// reference)`);
    return;
  }
  for (const source of await readPromptfooTests(reference, conversion.folder)) {
    notConverted.push(...source.problems);
    const cases = source.tests.flatMap((entry: PromptfooTestEntry, index) => {
      const test = TestSchema.safeParse(entry);
      const at = `${source.file} test ${index + 1}`;
      if (test.success) return [convertTest(conversion, test.data, at, index)];
      notConverted.push(`${at}: not a promptfoo test (${test.error.issues[0]?.message ?? 'unreadable'})`);
      return [];
    });
    if (!cases.length) continue;
    const base = agentNameFrom(path.basename(source.file, path.extname(source.file))) || 'cases';
    let name = `cases/${base}.yaml`;
    for (let n = 2; caseFiles.some((file) => file.path === name); n++) name = `cases/${base}-${n}.yaml`;
    caseFiles.push({ path: name, cases });
  }
}

/**
 * Converts `tests:` (inline tests and `file://` references) with the prompt's user template as
 * each case's input; what does not map is added to notConverted, in the order met.
 */
export async function convertPromptfooTests(
  config: PromptfooConfig,
  userTemplate: string,
  folder: string,
  notConverted: string[],
): Promise<ConvertedTests> {
  const conversion: TestConversion = {
    config,
    userTemplate,
    folder,
    defaultVars: config.defaultTest?.vars ?? {},
    taken: new Set<string>(),
    notConverted,
    caseFiles: [],
  };
  const inline = typeof config.tests === 'string' ? [config.tests] : (config.tests ?? []);
  const testCases: Record<string, unknown>[] = [];
  for (const [index, test] of inline.entries()) {
    const where = typeof config.tests === 'string' ? 'tests' : `tests[${index}]`;
    if (typeof test === 'string') await readTests(conversion, test, where);
    else
      testCases.push(
        convertTest(
          conversion,
          test,
          `tests[${index}]${test.description ? ` (${test.description})` : ''}`,
          index,
        ),
      );
  }
  return { testCases, caseFiles: conversion.caseFiles };
}

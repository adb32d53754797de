import path from 'node:path';
import { backendProfile } from '../backends/select-backend.js';
import type { ConfigWarning, FieldPath, LoadedAgent, TestCase, TestTurn } from '../config/index.js';
import { formatFieldPath } from '../config/index.js';
import type { ConfigIssue } from '../errors.js';
import { retrievalToolEntries } from '../tools/retrieval/retrieval-tool-entries.js';
import { issueAt } from './case-source.js';
import { checkCaseInputs } from './check-case-inputs.js';
import type { GatheredCase } from './gather-cases.js';
import { describeKnownTools, isKnownToolName, knownToolNames } from './known-tool-names.js';
import type { CaseSource, DeferredToolName } from './prepared-suite.js';

/**
 * Checks each case against the agent: unique names, verdict expectations only with governance,
 * every tool an expectation names (known, off in tests, or left to the started agent's MCP
 * servers), and what the case's inputs need. Problems go to `issues`, notes to `warnings`; returns
 * the tool names resolved when the run starts.
 */
export function checkSuiteCases(
  agent: LoadedAgent,
  gathered: GatheredCase[],
  withSideEffects: LoadedAgent | undefined,
  issues: ConfigIssue[],
  warnings: ConfigWarning[],
): DeferredToolName[] {
  const { config } = agent;
  const known = knownToolNames(config);
  // The tools `holodeck test` turns off unless --allow-side-effects (Write, Edit, Bash): an
  // expectation naming one is told so, not "unknown tool".
  const offInTests = sideEffectToolNames(agent, withSideEffects);
  const offMessage = (caseName: string, name: string) =>
    `test case "${caseName}" expects tool "${name}", which holodeck test turns off: side effects are off unless --allow-side-effects`;
  const offHint =
    'run holodeck test --allow-side-effects (each case gets its own copy of the working directory), or drop the expectation';
  const deferredToolNames: DeferredToolName[] = [];
  const seen = new Map<string, CaseSource>();
  for (const { config: testCase, source } of gathered) {
    const earlier = seen.get(testCase.name);
    if (earlier)
      issues.push(
        issueAt(
          source,
          ['name'],
          `duplicate test case name "${testCase.name}"`,
          `${formatFieldPath(earlier.path)} in ${path.basename(earlier.file)} has it already`,
        ),
      );
    else seen.set(testCase.name, source);
    if ((testCase.expected_verdicts || testCase.expect_killed !== undefined) && !config.governance) {
      issues.push(
        issueAt(
          source,
          [],
          `test case "${testCase.name}" expects Novarch verdicts, but the agent has no governance block`,
          'add governance: to agent.yaml, or remove expected_verdicts / expect_killed',
        ),
      );
    }
    for (const { name, field } of namedTools(testCase)) {
      if (offInTests.has(name)) {
        const off = {
          code: 'tool-off-in-tests' as const,
          message: `${offMessage(testCase.name, name)}; ${offHint}`,
          file: source.file,
        };
        if (withSideEffects) issues.push(issueAt(source, field, offMessage(testCase.name, name), offHint));
        // validate: the agent has it, so it is a warning about what `holodeck test` will do.
        else if (field.includes('expected_tools')) warnings.push(off);
        continue;
      }
      if (isKnownToolName(name, known)) continue;
      // A name none of the declared tools has may be a tool of an MCP server: only the started
      // agent knows those, so it is resolved when the run starts.
      if (known.mcpServers.length) {
        deferredToolNames.push({ name, caseName: testCase.name, source, field });
        continue;
      }
      issues.push(
        issueAt(
          source,
          field,
          `test case "${testCase.name}" expects unknown tool "${name}"`,
          describeKnownTools(known),
        ),
      );
    }
    issues.push(
      ...checkCaseInputs(testCase, source, config.evaluations?.metrics ?? [], issueAt, {
        retrievalContext: retrievalToolEntries(config.tools).length > 0,
      }),
    );
  }
  if (deferredToolNames.length)
    warnings.push(deferredNamesWarning(agent, deferredToolNames, known.mcpServers));
  return deferredToolNames;
}

/** Every tool name a case's expectations name (its own and its turns'), each with its field. */
function namedTools(testCase: TestCase): { name: string; field: FieldPath }[] {
  const places: { prefix: FieldPath; owner: TestCase | TestTurn }[] = [
    { prefix: [], owner: testCase },
    ...(testCase.turns ?? []).map((turn, index) => ({ prefix: ['turns', index], owner: turn })),
  ];
  return places.flatMap(({ prefix, owner }) => [
    ...(owner.expected_tools ?? []).map((entry, index) => ({
      name: typeof entry === 'string' ? entry : entry.name,
      field: [...prefix, 'expected_tools', index],
    })),
    ...(owner.forbidden_tools ?? []).map((name, index) => ({
      name,
      field: [...prefix, 'forbidden_tools', index],
    })),
    ...trajectoryToolNames(owner, prefix),
  ]);
}

/** The warning that names the tools left to the started agent's MCP servers. */
function deferredNamesWarning(
  agent: LoadedAgent,
  deferred: DeferredToolName[],
  mcpServers: readonly string[],
): ConfigWarning {
  const names = [...new Set(deferred.map((entry) => `"${entry.name}"`))].join(', ');
  return {
    code: 'tool-names-resolved-at-run-start',
    message: `expected/forbidden tool ${names} is none of the agent's function or built-in tools; it must be a tool of MCP server ${mcpServers.join(', ')}, which \`holodeck test\` checks when the run starts`,
    file: agent.file,
  };
}

/** The tool names the trajectory fields of a case or turn name, each with its field. */
function trajectoryToolNames(
  owner: TestCase | TestTurn,
  prefix: FieldPath,
): { name: string; field: FieldPath }[] {
  const sequence = owner.expected_tool_sequence;
  const steps = sequence === undefined ? [] : Array.isArray(sequence) ? sequence : sequence.tools;
  const stepsField = Array.isArray(sequence)
    ? ['expected_tool_sequence']
    : ['expected_tool_sequence', 'tools'];
  const before = owner.called_before;
  const pairs =
    before === undefined
      ? []
      : typeof before[0] === 'string'
        ? [before as [string, string]]
        : (before as [string, string][]);
  const single = before !== undefined && typeof before[0] === 'string';
  const limits = owner.max_tool_calls;
  return [
    ...steps.map((step, index) => ({
      name: typeof step === 'string' ? step : step.name,
      field: [...prefix, ...stepsField, index],
    })),
    ...pairs.flatMap((pair, index) =>
      pair.map((name, side) => ({
        name,
        field: [...prefix, 'called_before', ...(single ? [] : [index]), side],
      })),
    ),
    ...Object.keys(typeof limits === 'object' ? (limits.per_tool ?? {}) : {}).map((name) => ({
      name,
      field: [...prefix, 'max_tool_calls', 'per_tool', name],
    })),
  ];
}

/**
 * Tool names the agent as written has and its side-effect-free copy lacks: with `withSideEffects`,
 * `agent` is that copy; without, the copy is made here (validate).
 */
function sideEffectToolNames(agent: LoadedAgent, withSideEffects: LoadedAgent | undefined): Set<string> {
  const full = withSideEffects ?? agent;
  const reduced = withSideEffects
    ? agent
    : backendProfile(full.config.model.provider).sideEffects(full).withoutSideEffects();
  const without = knownToolNames(reduced.config).names;
  return new Set([...knownToolNames(full.config).names].filter((name) => !without.has(name)));
}

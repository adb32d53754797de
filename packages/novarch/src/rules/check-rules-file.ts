import { closestMatch, type FieldIssue, isRecord, locateOffsetInScalar } from 'yaml-diagnostics';
import { compileCondition } from './compile-condition.js';
import type { YamlFile } from './yaml/read-yaml-file.js';

/**
 * Checks a rules file beyond its schema: each condition compiles as CEL (syntax, names, a boolean
 * result), each rule names only declared action types, and rule ids are unique. Works on the raw
 * data, so these problems are reported together with the schema's.
 */
export function checkRulesFile(yaml: YamlFile): FieldIssue[] {
  const { data } = yaml;
  const declared = declaredActionTypes(data);
  const rules = Array.isArray(data.rules) ? data.rules : [];
  const firstIndex = new Map<string, number>();
  const issues: FieldIssue[] = [];
  rules.forEach((rule: unknown, index) => {
    if (!isRecord(rule)) return;
    if (typeof rule.id === 'string') {
      const first = firstIndex.get(rule.id);
      if (first === undefined) firstIndex.set(rule.id, index);
      else
        issues.push({
          path: ['rules', index, 'id'],
          message: `duplicate rule id "${rule.id}"; rules[${first}] already uses it`,
          hint: 'rule ids must be unique in a rules file: rename one, or bump the version of the rule you changed',
        });
    }
    if (declared !== undefined && Array.isArray(rule.applies_to)) {
      rule.applies_to.forEach((type: unknown, typeIndex) => {
        if (typeof type !== 'string' || declared.includes(type)) return;
        const match = closestMatch(type, declared);
        issues.push({
          path: ['rules', index, 'applies_to', typeIndex],
          message: `action type "${type}" is not declared in action_types`,
          hint:
            match === undefined
              ? `declared: ${declared.map((name) => `"${name}"`).join(', ')}; or add "${type}" to action_types`
              : `did you mean "${match}"? or add "${type}" to action_types`,
        });
      });
    }
    if (rule.mode === 'monitor' && (typeof rule.condition !== 'string' || rule.condition.trim() === '')) {
      issues.push({
        path: ['rules', index, 'mode'],
        message:
          'mode: monitor needs a condition; a rule without one is judged by the LLM, which shadow mode does not call',
        hint: 'give the rule a CEL condition, or remove mode: monitor',
      });
    }
    if (typeof rule.condition === 'string' && rule.condition.trim() !== '') {
      issues.push(...checkCondition(yaml, index, rule.condition, declared));
    }
    // Approvals are asked of an operator deciding a hold: on a kill rule they would have no effect.
    if (rule.on_violation === 'kill') {
      for (const field of ['approvals', 'approvers'] as const) {
        if (rule[field] === undefined) continue;
        issues.push({
          path: ['rules', index, field],
          message: `${field} applies to a rule with on_violation: hold; this rule kills, so no operator decides it`,
          hint: `remove ${field}:, or set on_violation: hold`,
        });
      }
    }
  });
  return issues;
}

/** The names listed in `action_types` (whatever else is wrong with them); undefined without a list. */
export function declaredActionTypes(data: Record<string, unknown>): string[] | undefined {
  return Array.isArray(data.action_types)
    ? data.action_types.filter((type): type is string => typeof type === 'string')
    : undefined;
}

function checkCondition(
  yaml: YamlFile,
  index: number,
  condition: string,
  declared: string[] | undefined,
): FieldIssue[] {
  const compiled = compileCondition(condition);
  const path = ['rules', index, 'condition'];
  const locate = (offset: number | undefined) =>
    offset === undefined
      ? undefined
      : locateOffsetInScalar(yaml.document, yaml.lineCounter, yaml.source, path, offset);
  if (compiled.ok) {
    if (declared === undefined) return [];
    return (
      compiled.historyCalls
        // Evidence calls name a tool, not an action type.
        .filter((call) => call.kind === 'action' && !declared.includes(call.actionType))
        .map((call) => {
          const match = closestMatch(call.actionType, declared);
          const position = locate(call.offset);
          return {
            path,
            message: `history.${call.aggregate}: action type "${call.actionType}" is not declared in action_types`,
            hint:
              match === undefined
                ? `declared: ${declared.map((name) => `"${name}"`).join(', ')}; or add "${call.actionType}" to action_types`
                : `did you mean "${match}"? or add "${call.actionType}" to action_types`,
            ...(position ? { position } : {}),
          };
        })
    );
  }
  const position = locate(compiled.offset);
  const what = compiled.kind === 'syntax' ? 'CEL syntax error' : 'invalid CEL condition';
  return [
    { path, message: `${what}: ${compiled.message}`, hint: compiled.hint, ...(position ? { position } : {}) },
  ];
}

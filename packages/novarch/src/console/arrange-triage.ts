import type { TriageHold } from './console-deps.js';

/** What the triage list can be sorted and grouped by. */
export const TRIAGE_SORTS = ['deadline', 'amount', 'tenant', 'team', 'agent'] as const;
export const TRIAGE_GROUPS = ['none', 'tenant', 'team', 'agent'] as const;
export type TriageSort = (typeof TRIAGE_SORTS)[number];
export type TriageGroup = (typeof TRIAGE_GROUPS)[number];

/** How the operator asked for the triage list: a filter text, a sort, a grouping. */
export interface TriageArrangement {
  /** Only holds whose tenant, team, agent, action type or tool contains this text (any case). */
  filter?: string;
  sort: TriageSort;
  group: TriageGroup;
}

/** A group of the triage list (one group, labelled '', when it is not grouped). */
export interface TriageGroupOfHolds {
  label: string;
  holds: TriageHold[];
}

const scopeOf = (item: TriageHold, key: 'tenant' | 'team' | 'agent') =>
  key === 'tenant' ? item.session.tenantId : key === 'team' ? item.session.teamId : item.session.agentId;

/**
 * The holds filtered, sorted (deadline: soonest first; amount: largest first, holds without an
 * amount last; tenant, team, agent: by name, then deadline) and grouped by name.
 */
export function arrangeTriage(
  holds: readonly TriageHold[],
  arrangement: TriageArrangement,
): TriageGroupOfHolds[] {
  const needle = arrangement.filter?.trim().toLowerCase() ?? '';
  const shown = holds.filter(
    (item) =>
      needle === '' ||
      [
        item.session.tenantId,
        item.session.teamId,
        item.session.agentId,
        item.action?.actionType ?? '',
        item.action?.toolName ?? '',
      ].some((value) => value.toLowerCase().includes(needle)),
  );
  const byDeadline = (a: TriageHold, b: TriageHold) => a.hold.deadline.localeCompare(b.hold.deadline);
  const { sort } = arrangement;
  const sorted = [...shown].sort((a, b) => {
    if (sort === 'deadline') return byDeadline(a, b);
    if (sort === 'amount') {
      const left = a.action?.context.amount;
      const right = b.action?.context.amount;
      if (left === undefined || right === undefined)
        return (left === undefined ? 1 : 0) - (right === undefined ? 1 : 0) || byDeadline(a, b);
      return right - left || byDeadline(a, b);
    }
    return scopeOf(a, sort).localeCompare(scopeOf(b, sort)) || byDeadline(a, b);
  });
  const { group } = arrangement;
  if (group === 'none') return [{ label: '', holds: sorted }];
  const groups = new Map<string, TriageHold[]>();
  for (const item of sorted) {
    const key = scopeOf(item, group);
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([label, items]) => ({ label: `${group} ${label}`, holds: items }));
}

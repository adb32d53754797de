import type { AuditEntry } from '../../model/novarch-store.js';

/** A human's verdict on an action: `pass` it was fine to run, `kill` it should have been stopped. */
export type RuleLabel = 'pass' | 'kill';

/** Where a label came from. */
export type RuleLabelSource = 'hold' | 'label';

/** A label of one recorded action. */
export interface ActionLabel {
  actionId: string;
  label: RuleLabel;
  source: RuleLabelSource;
  /** Who decided (the operator of the hold, or who labelled it). */
  by?: string;
}

/** One entry of a labels file (`novarch rules label` writes them). */
export interface LabelEntry {
  action: string;
  label: RuleLabel;
  by?: string | undefined;
  comment?: string | undefined;
  at?: string | undefined;
}

/**
 * The labels of a team's recorded actions: an operator's decision of a hold is the label of the
 * judge's hold (approved: pass, denied: kill); an entry of the labels file (`novarch rules label`)
 * wins over it, since it is a human's later word. Holds skipped or timed out say nothing.
 */
export function collectLabels(
  entries: readonly AuditEntry[],
  labelled: readonly LabelEntry[],
): Map<string, ActionLabel> {
  const labels = new Map<string, ActionLabel>();
  for (const entry of entries) {
    const hold = entry.hold;
    if (hold === undefined || (hold.status !== 'approved' && hold.status !== 'denied')) continue;
    labels.set(entry.action.id, {
      actionId: entry.action.id,
      label: hold.status === 'approved' ? 'pass' : 'kill',
      source: 'hold',
      ...(hold.decidedBy === undefined ? {} : { by: hold.decidedBy }),
    });
  }
  const known = new Set(entries.map((entry) => entry.action.id));
  for (const entry of labelled) {
    if (!known.has(entry.action)) continue;
    labels.set(entry.action, {
      actionId: entry.action,
      label: entry.label,
      source: 'label',
      ...(entry.by === undefined ? {} : { by: entry.by }),
    });
  }
  return labels;
}

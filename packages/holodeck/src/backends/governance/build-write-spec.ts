import type { WriteSpec } from 'novarch';
import type { GovernanceWriteSpec } from '../../config/index.js';

/** `refund {order_id}` with the tool's arguments filled in. */
function fillTemplate(template: string, args: Record<string, unknown>): string {
  return template.replace(/\{([A-Za-z0-9_]+)\}/g, (_match, name: string) =>
    String(args[name] ?? `{${name}}`),
  );
}

/**
 * A Novarch WriteSpec from agent.yaml: the action's context is taken from named tool arguments.
 * A missing record id or a non-numeric amount throws, which the gate turns into a refusal.
 */
export function buildWriteSpec(
  spec: GovernanceWriteSpec,
  /** The tool's input schema check (function tools: their `parameters`), for approve with edit. */
  validateInput?: (args: Record<string, unknown>) => string | undefined,
): WriteSpec {
  return {
    actionType: spec.action_type,
    ...(validateInput === undefined ? {} : { validateInput }),
    contextBuilder(args) {
      const recordId = args[spec.record_id];
      if (typeof recordId !== 'string' && typeof recordId !== 'number') {
        throw new Error(`argument "${spec.record_id}" (the record id) is missing`);
      }
      const context = {
        recordId: String(recordId),
        summary: spec.summary ? fillTemplate(spec.summary, args) : `${spec.action_type} ${String(recordId)}`,
      };
      if (spec.amount === undefined) return context;
      const amount = Number(args[spec.amount]);
      if (!Number.isFinite(amount)) throw new Error(`argument "${spec.amount}" (the amount) is not a number`);
      return { ...context, amount };
    },
  };
}

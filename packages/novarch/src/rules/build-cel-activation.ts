import type { ActionRecord, EvidenceRecord, SessionScope } from '../model/records.js';
import { CelAction, CelEvidence, CelSession } from './cel-types.js';

/** The parts of an action the judge reads (an ActionRecord fits). */
export type JudgedAction = Pick<ActionRecord, 'actionType' | 'toolName' | 'input' | 'context' | 'reasoning'>;

/**
 * The variables a condition sees: `action` {type, tool, input, context, reasoning}, `evidence`
 * [{id, tool, input, output, is_error}] in recorded order, `session` {tenant_id, team_id, agent_id}.
 * Values are made JSON-like first (what the store gives back anyway): undefined fields disappear,
 * dates become ISO strings, and a missing `reasoning` is the empty string. Throws on data that
 * cannot be made JSON-like (a cycle); the judge turns that into a violation.
 */
export function buildCelActivation(
  action: JudgedAction,
  evidence: readonly EvidenceRecord[],
  session: SessionScope,
): Record<string, unknown> {
  return {
    action: new CelAction(
      action.actionType,
      action.toolName,
      toJsonLike(action.input),
      toJsonMap(action.context),
      action.reasoning ?? '',
    ),
    evidence: evidence.map(
      (record) =>
        new CelEvidence(
          record.id,
          record.toolName,
          toJsonLike(record.input),
          toJsonLike(record.output),
          record.isError,
        ),
    ),
    session: new CelSession(session.tenantId, session.teamId, session.agentId),
  };
}

function toJsonLike(value: unknown): unknown {
  if (value === undefined) return null;
  const text = JSON.stringify(value, (_key, inner: unknown) =>
    typeof inner === 'bigint'
      ? Number.isSafeInteger(Number(inner))
        ? Number(inner)
        : inner.toString()
      : inner,
  );
  return text === undefined ? null : JSON.parse(text);
}

/** The context as a JSON-like mapping; anything else (impossible for a typed ActionContext) is empty. */
function toJsonMap(value: unknown): Record<string, unknown> {
  const converted = toJsonLike(value);
  return typeof converted === 'object' && converted !== null && !Array.isArray(converted)
    ? Object.fromEntries(Object.entries(converted))
    : {};
}

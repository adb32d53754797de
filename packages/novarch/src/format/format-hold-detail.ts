import type { OperatorDecisionResult } from '../operations/decide-hold-as-operator.js';
import { describeWaiter, explainHoldState, holdStatusLabel } from '../operations/describe-hold-state.js';
import type { HoldDetail } from '../operations/hold-operations.js';
import { formatInlineJson } from './format-table.js';
import { agentText, neutralise } from './neutralise-text.js';
import { paintStatus } from './paint-status.js';
import { PLAIN_STYLE, type Style } from './terminal-style.js';

const KEY_WIDTH = 11;

/** `  key        value` lines, skipping absent values; each value on one line, escapes neutralised. */
function fields(entries: ReadonlyArray<readonly [string, string | undefined]>): string[] {
  return entries.flatMap(([key, value]) =>
    value === undefined ? [] : [`  ${key.padEnd(KEY_WIDTH)}${neutralise(value)}`],
  );
}

/** Fields whose value the agent wrote: labelled `(agent)` (and neutralised like every value). */
function agentFields(entries: ReadonlyArray<readonly [string, string | undefined]>): string[] {
  return entries.flatMap(([key, value]) =>
    value === undefined ? [] : [`  ${key.padEnd(KEY_WIDTH)}${agentText(value)}`],
  );
}

/** `novarch holds show` for humans: the hold, its session, action, verdict and cited evidence. */
export function formatHoldDetail(detail: HoldDetail, style: Style = PLAIN_STYLE): string {
  const { hold, state, session, action, verdict, citedEvidence } = detail;
  const lines = [
    `${style.bold('Hold')} ${hold.id}`,
    ...fields([
      ['status', paintStatus(style, holdStatusLabel(hold, state))],
      ['created', hold.createdAt],
      ['deadline', hold.deadline],
      ['waiter', hold.waiter === undefined && state === undefined ? undefined : describeWaiter(hold)],
      ['', state === undefined ? undefined : explainHoldState(hold, state)],
      ['decided', hold.decidedAt === undefined ? undefined : `${hold.decidedAt} by ${hold.decidedBy ?? '?'}`],
      ['rationale', hold.rationale],
    ]),
    '',
    `${style.bold('Session')} ${hold.sessionId}${session === undefined ? ' (not stored)' : ''}`,
    ...(session === undefined
      ? []
      : fields([
          ['tenant', session.tenantId],
          ['team', session.teamId],
          ['agent', session.agentId],
          ['started', session.startedAt],
          [
            'killed',
            session.killedAt === undefined ? undefined : `${session.killedAt}: ${session.killReason}`,
          ],
        ])),
    '',
    `${style.bold('Action')} ${hold.actionId}${action === undefined ? ' (not stored)' : ''}`,
    ...(action === undefined
      ? []
      : [
          ...fields([
            ['type', action.actionType],
            ['tool', action.toolName],
          ]),
          ...agentFields([
            ['record', action.context.recordId],
            ['summary', action.context.summary],
            ['context', formatInlineJson(action.context)],
            ['input', formatInlineJson(action.input)],
            ['reasoning', action.reasoning ?? '(none given)'],
          ]),
          '  (agent): written by the agent or built from its tool input, not by Novarch or an operator',
        ]),
    '',
  ];
  if (verdict === undefined) {
    lines.push(`${style.bold('Verdict')} none stored`);
  } else {
    const { kind, citations } = verdict.verdict;
    const cited = new Set(citedEvidence.map((record) => record.id));
    lines.push(
      `${style.bold('Verdict')} ${paintStatus(style, kind)} (${verdict.source}, ${verdict.decidedAt})`,
      ...fields([
        ['rules', citations.ruleIds.join(', ') || '(none)'],
        [
          'evidence',
          citations.evidenceIds.map((id) => (cited.has(id) ? id : `${id} (not stored)`)).join(', ') ||
            '(none)',
        ],
        ['rationale', citations.rationale],
      ]),
    );
  }
  if (citedEvidence.length > 0) {
    lines.push('', style.bold('Cited evidence'));
    for (const evidence of citedEvidence) {
      const failed = evidence.isError ? ' (error)' : '';
      lines.push(
        `  ${neutralise(evidence.id)}  ${neutralise(evidence.toolName)}${failed}  ${evidence.finishedAt}`,
        `    input   (agent) ${formatInlineJson(evidence.input)}`,
        `    output  (tool) ${formatInlineJson(evidence.output)}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

const OUTCOME: Record<'approved' | 'denied' | 'skipped', string> = {
  approved: 'The gate lets the write run.',
  denied: 'The gate refuses the write with this rationale; the agent continues.',
  skipped: 'The gate refuses the write and latches the session (fail-closed).',
};

/** What a hold closed with `--force` means: nothing ran it, nothing will. */
const FORCED_OUTCOME =
  'Nothing runs this write: no agent was waiting for the decision. ' +
  'If the write is still wanted, the agent must retry the action.';

/** The decision, as `novarch holds approve|deny|skip` confirms it. */
export function formatDecidedHold(
  { hold, forced }: OperatorDecisionResult,
  style: Style = PLAIN_STYLE,
): string {
  const status = hold.status === 'pending' || hold.status === 'timed_out' ? undefined : hold.status;
  const why = hold.rationale === undefined ? '' : `: ${neutralise(hold.rationale)}`;
  const first = `Hold ${hold.id} ${paintStatus(style, hold.status)} by ${neutralise(hold.decidedBy ?? '?')}${why}`;
  const outcome = forced !== undefined ? FORCED_OUTCOME : status === undefined ? undefined : OUTCOME[status];
  return `${first}\n${outcome === undefined ? '' : `${outcome}\n`}`;
}

import { describeApprovals } from '../operations/check-decider.js';
import type { OperatorDecisionResult } from '../operations/decide-hold-as-operator.js';
import { describeWaiter, explainHoldState, holdStatusLabel } from '../operations/describe-hold-state.js';
import type { HoldDetail } from '../operations/hold-operations.js';
import { formatInlineJson } from './format-table.js';
import { agentText, neutralise } from './neutralise-text.js';
import { statusTone } from './status-tone.js';
import { line, type Span, type StyledLine, type StyledText, span } from './styled-text.js';

const KEY_WIDTH = 11;

/** `  key        value` lines, skipping absent values; each value on one line, escapes neutralised. */
function fields(entries: ReadonlyArray<readonly [string, string | Span | undefined]>): StyledLine[] {
  return entries.flatMap(([key, value]) => {
    if (value === undefined) return [];
    const shown = typeof value === 'string' ? neutralise(value) : span(neutralise(value.text), value.tone);
    return [line(`  ${key.padEnd(KEY_WIDTH)}`, shown)];
  });
}

/** Fields whose value the agent wrote: labelled `(agent)` (and neutralised like every value). */
function agentFields(entries: ReadonlyArray<readonly [string, string | undefined]>): StyledLine[] {
  return entries.flatMap(([key, value]) =>
    value === undefined ? [] : [line(`  ${key.padEnd(KEY_WIDTH)}${agentText(value)}`)],
  );
}

/** A status, verdict kind or kill marker in its tone. */
function toned(text: string): Span {
  return span(text, statusTone(text));
}

/** `novarch holds show` for humans: the hold, its session, action, verdict and cited evidence. */
export function formatHoldDetail(detail: HoldDetail): StyledText {
  return [
    ...holdLines(detail),
    line(),
    ...sessionLines(detail),
    line(),
    ...actionLines(detail),
    line(),
    ...verdictLines(detail),
    ...citedEvidenceLines(detail),
  ];
}

function holdLines({ hold, state }: HoldDetail): StyledLine[] {
  return [
    line(span('Hold', 'bold'), ` ${hold.id}`),
    ...fields([
      ['status', toned(holdStatusLabel(hold, state))],
      ['created', hold.createdAt],
      ['deadline', hold.deadline],
      ['waiter', hold.waiter === undefined && state === undefined ? undefined : describeWaiter(hold)],
      ['', state === undefined ? undefined : explainHoldState(hold, state)],
      ['decided', hold.decidedAt === undefined ? undefined : `${hold.decidedAt} by ${hold.decidedBy ?? '?'}`],
      ['rationale', hold.rationale],
      ['approvals', describeApprovals(hold)],
      ...(hold.policy?.approverGroups ?? []).map(
        (entry) => ['approvers', `${entry.groups.join(' or ')} (rule ${entry.ruleId})`] as const,
      ),
      [
        'edited',
        hold.edit === undefined ? undefined : `by ${hold.edit.by}: ${formatInlineJson(hold.edit.input)}`,
      ],
    ]),
  ];
}

function sessionLines({ hold, session }: HoldDetail): StyledLine[] {
  return [
    line(span('Session', 'bold'), ` ${hold.sessionId}${session === undefined ? ' (not stored)' : ''}`),
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
  ];
}

function actionLines({ hold, action }: HoldDetail): StyledLine[] {
  return [
    line(span('Action', 'bold'), ` ${hold.actionId}${action === undefined ? ' (not stored)' : ''}`),
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
          line('  (agent): written by the agent or built from its tool input, not by Novarch or an operator'),
        ]),
  ];
}

function verdictLines({ verdict, citedEvidence }: HoldDetail): StyledLine[] {
  if (verdict === undefined) return [line(span('Verdict', 'bold'), ' none stored')];
  const { kind, citations } = verdict.verdict;
  const cited = new Set(citedEvidence.map((record) => record.id));
  return [
    line(span('Verdict', 'bold'), ' ', toned(kind), ` (${verdict.source}, ${verdict.decidedAt})`),
    ...fields([
      ['rules', citations.ruleIds.join(', ') || '(none)'],
      [
        'evidence',
        citations.evidenceIds.map((id) => (cited.has(id) ? id : `${id} (not stored)`)).join(', ') || '(none)',
      ],
      ['rationale', citations.rationale],
    ]),
  ];
}

function citedEvidenceLines({ citedEvidence }: HoldDetail): StyledLine[] {
  if (citedEvidence.length === 0) return [];
  return [
    line(),
    line(span('Cited evidence', 'bold')),
    ...citedEvidence.flatMap((evidence) => {
      const failed = evidence.isError ? ' (error)' : '';
      return [
        line(
          `  ${neutralise(evidence.id)}  ${neutralise(evidence.toolName)}${failed}  ${evidence.finishedAt}`,
        ),
        line(`    input   (agent) ${formatInlineJson(evidence.input)}`),
        line(`    output  (tool) ${formatInlineJson(evidence.output)}`),
      ];
    }),
  ];
}

const OUTCOME: Record<'approved' | 'denied' | 'skipped', string> = {
  approved: 'The gate lets the write run.',
  denied: 'The gate refuses the write with this rationale; the agent continues.',
  skipped: 'The gate refuses the write and latches the session (fail-closed).',
};

/** What an approval with edit means: the edit is checked and judged again before anything runs. */
const EDITED_OUTCOME =
  "The gate checks the edited input against the tool's schema and the rules judge it again: it runs " +
  'with the edited input only if they allow it (the audit shows that verdict); the agent’s own input does not run.';

/** What a hold closed with `--force` means: nothing ran it, nothing will. */
const FORCED_OUTCOME =
  'Nothing runs this write: no agent was waiting for the decision. ' +
  'If the write is still wanted, the agent must retry the action.';

/** The decision, as `novarch holds approve|deny|skip` confirms it. */
export function formatDecidedHold({ hold, forced, awaiting }: OperatorDecisionResult): StyledText {
  if (awaiting !== undefined) {
    return [
      line(`Approval of hold ${hold.id} recorded: ${neutralise(describeApprovals(hold) ?? '')}.`),
      line(
        `The write still waits: ${awaiting} more approval${awaiting === 1 ? '' : 's'} from other operators let it run; one deny refuses it.`,
      ),
    ];
  }
  const status = hold.status === 'pending' || hold.status === 'timed_out' ? undefined : hold.status;
  const why = hold.rationale === undefined ? '' : `: ${neutralise(hold.rationale)}`;
  const first = line(
    `Hold ${hold.id} `,
    toned(hold.status),
    ` by ${neutralise(hold.decidedBy ?? '?')}${why}`,
  );
  const outcome =
    forced !== undefined
      ? FORCED_OUTCOME
      : status === 'approved' && hold.edit !== undefined
        ? EDITED_OUTCOME
        : status === undefined
          ? undefined
          : OUTCOME[status];
  return outcome === undefined ? [first] : [first, line(outcome)];
}

import type { HookJSONOutput } from '@anthropic-ai/claude-agent-sdk';
import { actionIdOfFailure } from '../engine/decision-error.js';
import type { Decision } from '../engine/novarch-engine.js';
import type { ActionContext, HoldRecord, SessionRecord } from '../model/records.js';
import { errorMessage, isRecord } from '../support.js';
import { refuse } from './gate-decisions.js';
import type { WriteCall, WriteContext } from './judge-hook-write.js';
import type { WriteSpec } from './write-spec.js';

/** What the edited write needs of the hook's judgement besides its context. */
export interface EditTiming {
  latest: number;
  signal: AbortSignal | undefined;
}

/**
 * Runs an operator's edit of a held write (approve with edit) at the write's PreToolUse hook:
 * the edited input is checked against the tool's input schema (`WriteSpec.validateInput`; a tool
 * without one takes no edit), its context is built by the tool's WriteSpec, and the rules judge
 * it again as a new action (`editOf`: a hold only by rules that held the original is covered by
 * the approval). It runs, with the edited input (the hook's `updatedInput`), only on a pass or a
 * covered hold; otherwise it is refused with why, and the session goes on (the agent did not ask
 * for the edit, so a kill of it does not stop the session).
 */
export async function runEditedWrite(
  context: WriteContext,
  call: WriteCall,
  held: Decision,
  hold: HoldRecord,
  timing: EditTiming,
  stoppedBeforeRelease: (killed: SessionRecord, during: string) => Promise<HookJSONOutput>,
): Promise<HookJSONOutput> {
  const { recorder } = context;
  const edit = hold.edit;
  const by = edit?.by ?? 'an operator';
  const refuseHeld = (reason: string) => recorder.refuse(call, reason, { actionId: held.action.id });
  const checked = checkEdit(context.spec, edit, by, call.toolName);
  if ('refusal' in checked) return refuseHeld(checked.refusal);
  const { spec, input, actionContext } = checked;
  let decision: Decision;
  try {
    decision = await context.session.engine.decide(
      context.session.record,
      {
        actionType: spec.actionType,
        toolName: call.toolName,
        input,
        context: actionContext,
        reasoning: `${by} edited the input of ${held.action.id} when approving hold ${hold.id}`,
      },
      { deadline: timing.latest, release: true, editOf: hold.id },
    );
  } catch (error) {
    const actionId = actionIdOfFailure(error);
    return recorder.refuse(
      call,
      `the gate failed to judge the edit of ${by} (${errorMessage(error)}); refused to be safe`,
      actionId === undefined ? { actionId: held.action.id } : { actionId },
    );
  }
  const actionId = decision.action.id;
  // Killed before the edit was judged: the store recorded the refusal on it already.
  if (decision.release?.released === false && decision.verdict.kind !== 'pass')
    return stoppedBeforeRelease(decision.release.session, '');
  if (decision.verdict.kind === 'kill')
    return recorder.refuse(
      call,
      `the rules refuse the edit of ${by}: ${decision.verdict.citations.rationale}; it did not run`,
      { actionId },
    );
  if (decision.editRefusal !== undefined) return recorder.refuse(call, decision.editRefusal, { actionId });
  const release = decision.release;
  if (release === undefined)
    return recorder.refuse(call, 'the edit was not released; refused to be safe', { actionId });
  if (!release.released) return stoppedBeforeRelease(release.session, 'while the edited write was judged');
  if (timing.signal?.aborted)
    return refuse('the call was aborted before the edited write could run; it did not run');
  // `allow` is what makes the CLI take `updatedInput`; the write was judged and approved.
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      permissionDecisionReason: `Novarch: approved by ${by} with an edited input`,
      updatedInput: input,
    },
  };
}

/** An edit checked against the tool's schema and WriteSpec, with its context; or why it cannot run. */
type CheckedEdit =
  | { spec: WriteSpec; input: Record<string, unknown>; actionContext: ActionContext }
  | { refusal: string };

/** The edit `by` made, checked: a tool input object that fits the tool's input schema and WriteSpec. */
function checkEdit(
  spec: WriteSpec | undefined,
  edit: HoldRecord['edit'],
  by: string,
  toolName: string,
): CheckedEdit {
  if (edit === undefined || !isRecord(edit.input) || spec === undefined)
    return { refusal: `the edit of ${by} is not a tool input object; the write did not run` };
  const input = edit.input;
  if (spec.validateInput === undefined)
    return {
      refusal: `${by} approved an edited input, but the gate knows no input schema of "${toolName}" to check it against (WriteSpec.validateInput), so the edit did not run`,
    };
  const problem = safely(() => spec.validateInput?.(input));
  if (problem !== undefined)
    return {
      refusal: `the edit of ${by} does not fit the input schema of "${toolName}" (${problem}); it did not run`,
    };
  try {
    return { spec, input, actionContext: spec.contextBuilder(input) };
  } catch (error) {
    return {
      refusal: `the edit of ${by} does not fit the WriteSpec of "${toolName}" (${errorMessage(error)}); it did not run`,
    };
  }
}

function safely(check: () => string | undefined): string | undefined {
  try {
    return check();
  } catch (error) {
    return `the schema check failed: ${errorMessage(error)}`;
  }
}

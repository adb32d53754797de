import { NovarchError } from '../errors.js';
import { errorMessage } from '../support.js';

/**
 * A decision that failed after its action was recorded (the evidence could not be read, the
 * verdict or the release could not be stored): the message is the cause's, and `actionId` names
 * the recorded action, so the refusal that follows is recorded on it rather than as a new action
 * (which would leave the judged one without any verdict in the audit). `refusalRecorded` says
 * the refusal is stored already (a server that failed to decide records it before it answers
 * 503), so the caller records no second one.
 */
export class DecisionError extends NovarchError {
  override name = 'DecisionError';
  readonly refusalRecorded: boolean;
  constructor(
    readonly actionId: string,
    cause: unknown,
    options: { refusalRecorded?: boolean } = {},
  ) {
    super(errorMessage(cause), { cause });
    this.refusalRecorded = options.refusalRecorded ?? false;
  }
}

/** The recorded action a failed decision was about, if it got that far. */
export function actionIdOfFailure(error: unknown): string | undefined {
  return error instanceof DecisionError ? error.actionId : undefined;
}

/**
 * Where the refusal of a failed decision still has to be recorded: on its action (`actionId`),
 * nowhere (`recorded`: it is stored already), or as a new refused call (`new`: the decision
 * failed before its action was recorded).
 */
export type FailedDecisionRefusal =
  | { kind: 'on-action'; actionId: string }
  | { kind: 'recorded' }
  | { kind: 'new' };

export function refusalOfFailure(error: unknown): FailedDecisionRefusal {
  if (!(error instanceof DecisionError)) return { kind: 'new' };
  return error.refusalRecorded ? { kind: 'recorded' } : { kind: 'on-action', actionId: error.actionId };
}

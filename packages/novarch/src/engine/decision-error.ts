import { NovarchError } from '../errors.js';
import { errorMessage } from '../support.js';

/**
 * A decision that failed after its action was recorded (the evidence could not be read, the
 * verdict or the release could not be stored): the message is the cause's, and `actionId` names
 * the recorded action, so the refusal that follows is recorded on it rather than as a new action
 * (which would leave the judged one without any verdict in the audit).
 */
export class DecisionError extends NovarchError {
  override name = 'DecisionError';
  constructor(
    readonly actionId: string,
    cause: unknown,
  ) {
    super(errorMessage(cause), { cause });
  }
}

/** The recorded action a failed decision was about, if it got that far. */
export function actionIdOfFailure(error: unknown): string | undefined {
  return error instanceof DecisionError ? error.actionId : undefined;
}

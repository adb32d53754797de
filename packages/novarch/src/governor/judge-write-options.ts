import type { HoldListener } from '../gate/hold-listener.js';
import type { SessionStop } from './governed-call.js';

/** How a write is judged. */
export interface JudgeWriteOptions {
  /** The call's abort signal: it ends a hold's wait, and an aborted write never runs. */
  signal?: AbortSignal | undefined;
  /**
   * The last moment (epoch ms) the write may still be let run. The judge gets at most the time up
   * to it, a hold's deadline never passes it, and an approval that comes later does not run it.
   */
  deadline?: number | undefined;
  /**
   * Called as soon as the session is known to stop, before the stop is written to the store, so
   * a caller that latches can refuse its other calls while that write is under way.
   */
  onStop?: (stop: SessionStop) => void;
  /** Told when the write is held and when its hold is decided (see `HoldEvent`). */
  onHold?: HoldListener | undefined;
  /** The tool call's id, reported with hold events when the loop knows it. */
  callId?: string | undefined;
  /** The model's text before the call: the write's rationale when its input has no `reasoning`. */
  modelText?: string | undefined;
}

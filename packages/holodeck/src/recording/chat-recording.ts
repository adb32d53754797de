import type { BackendOptions } from '../backends/contract/index.js';
import type { LoadedAgent } from '../config/index.js';
import { markTurn } from '../tools/run-traffic.js';
import { modelTrafficOf } from './model-traffic-of.js';
import { prepareRecordedAgent } from './prepare-recorded-agent.js';
import { type Recorder, scopeOf } from './recorder.js';

/** The recording of a chat is one "case" of this name, attempt 1, a turn per user message. */
export const CHAT_CASE = 'chat';

/** How `holodeck chat --record/--replay` runs: the agent, the backend options, and the scope of the whole chat. */
export interface ChatRecording {
  agent(loaded: LoadedAgent): LoadedAgent;
  backendOptions(): BackendOptions;
  /** Runs the chat (start-up included) in its scope; saves the recording and stops the proxy at the end. */
  run<T>(task: () => Promise<T>): Promise<T>;
  /** The chat moved to its n-th user message (1-based). */
  turn(turn: number): void;
}

/** A chat's recording on `recorder`: refused up front when a recording exists and --re-record is not given. */
export function chatRecording(recorder: Recorder): ChatRecording {
  recorder.checkCanRecord([CHAT_CASE]);
  // Everything of the chat (start-up included) is its one scope: it is the backend's fallback.
  const scope = scopeOf(CHAT_CASE);
  return {
    agent: (loaded) => prepareRecordedAgent(loaded, recorder),
    backendOptions: () => ({ modelTraffic: modelTrafficOf(recorder, scope) }),
    async run(task) {
      await recorder.start();
      try {
        return await task();
      } finally {
        await recorder.saveCase(CHAT_CASE);
        await recorder.close();
      }
    },
    turn: (turn) => markTurn(scope, turn),
  };
}

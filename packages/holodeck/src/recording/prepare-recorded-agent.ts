import type { LoadedAgent } from '../config/index.js';
import { checkRecordable } from './check-recordable.js';
import type { Recorder } from './recorder.js';
import { withReplayCredentials } from './replay-credentials.js';

/**
 * The agent as a recorded or replayed run uses it: refused when its auth provider cannot pass
 * through the recorder; in a pure replay (nothing goes live) with placeholder credentials.
 */
export function prepareRecordedAgent(agent: LoadedAgent, recorder: Recorder): LoadedAgent {
  checkRecordable(agent, recorder.mode === 'record' ? '--record' : '--replay');
  return recorder.mode === 'replay' && !recorder.options.recordMissing ? withReplayCredentials(agent) : agent;
}

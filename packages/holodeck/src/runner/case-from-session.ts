import type { SessionTranscript } from '../backends/contract/index.js';
import { type CaseFromRunOptions, caseFromConversation } from './case-from-run.js';

/**
 * A test case made from a saved chat session (`holodeck test add --from-session`): its user
 * messages as the case's input or turns, every tool that ran as `expected_tools`, the last answer
 * as `ground_truth` (or a counterexample). Secrets redacted.
 */
export function caseFromSession(
  transcript: SessionTranscript,
  options: CaseFromRunOptions,
): Record<string, unknown> {
  return caseFromConversation(
    {
      inputs: transcript.turns.map((turn) => turn.input),
      toolCalls: transcript.turns.flatMap((turn) => turn.toolCalls),
      answer: transcript.turns.at(-1)?.response ?? '',
    },
    options,
  );
}

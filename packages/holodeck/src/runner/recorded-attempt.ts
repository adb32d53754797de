import type { Recorder } from '../recording/recorder.js';
import type { RunTraffic } from '../tools/run-traffic.js';
import type { CaseAttempt } from './report/run-report.js';

/**
 * Runs one attempt with its recorded traffic (`run` hands it to what the attempt calls). In replay, an attempt that made a request with no
 * recording errors with the first such request's message (whatever the agent made of the error
 * answer it got); in a recording run, its tool calls are stored beside the model traffic.
 */
export async function recordedAttempt(
  recorder: Recorder | undefined,
  caseName: string,
  attempt: number,
  run: (traffic?: RunTraffic) => Promise<CaseAttempt>,
): Promise<CaseAttempt> {
  if (!recorder) return run();
  const outcome = await recorder.runAttempt(caseName, attempt, run);
  const turns = outcome.turns ?? [outcome];
  turns.forEach((turn, index) => {
    const results = new Map(turn.tool_results.map((result) => [result.call_id, result]));
    recorder.recordToolCalls(
      caseName,
      turn.tool_calls.map((call) => ({
        attempt,
        turn: index + 1,
        tool: call.name,
        arguments: JSON.parse(JSON.stringify(call.arguments ?? {})),
        result: results.get(call.call_id)?.result ?? null,
        is_error: results.get(call.call_id)?.is_error ?? false,
      })),
    );
  });
  const unmatched = recorder.unmatchedOf(caseName, attempt);
  const first = unmatched[0];
  if (first === undefined) return outcome;
  const more = unmatched.length > 1 ? ` (and ${unmatched.length - 1} more unmatched request(s))` : '';
  return { ...outcome, passed: false, metrics: [], score: 0, error: `${first}${more}` };
}

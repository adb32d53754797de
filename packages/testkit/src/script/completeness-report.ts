import type { RecordedRequest } from '../request/recorded-request.js';
import type { ScriptStep } from './script-step.js';

/**
 * Describes why a script is not complete, or returns `undefined` when it is: no unused steps
 * and no unexpected request.
 */
export function completenessReport(
  remaining: readonly ScriptStep[],
  unexpected: readonly RecordedRequest[],
  agentLoopCount: number,
): string | undefined {
  if (remaining.length === 0 && unexpected.length === 0) return undefined;
  const lines = ['fake-anthropic: the script did not run as planned.'];
  if (remaining.length > 0) {
    lines.push(
      `  ${remaining.length} unused step(s), the next one would have answered agent-loop request #${agentLoopCount + 1}:`,
      ...remaining.map((step, index) => `    ${index + 1}. ${step.label}`),
    );
  }
  if (unexpected.length > 0) {
    lines.push(
      `  ${unexpected.length} unexpected request(s):`,
      ...unexpected.map(
        (request) => `    ${request.method} ${request.path}${request.query} — ${request.reason}`,
      ),
    );
  }
  lines.push(`  Agent-loop requests answered: ${agentLoopCount}.`);
  return lines.join('\n');
}

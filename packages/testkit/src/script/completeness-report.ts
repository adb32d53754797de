/** A script queue as `completenessReport()` sees it. */
export interface QueueState {
  /** What one answered request is called, e.g. `agent-loop` or `chat completion`. */
  noun: string;
  remaining: readonly { label: string }[];
  /** Requests of this kind answered so far. */
  answered: number;
  /** Leave the "… requests answered" line out when nothing was scripted or answered (secondary queues). */
  quietWhenIdle?: boolean;
}

/** An unexpected request as `completenessReport()` names it. */
export interface UnexpectedRequest {
  method: string;
  path: string;
  query: string;
  reason: string;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Describes why a script is not complete, or returns `undefined` when it is: no unused steps
 * and no unexpected request. `server` names the fake in the first line (`fake-anthropic`).
 */
export function completenessReport(
  server: string,
  queues: readonly QueueState[],
  unexpected: readonly UnexpectedRequest[],
): string | undefined {
  const unused = queues.filter((queue) => queue.remaining.length > 0);
  if (unused.length === 0 && unexpected.length === 0) return undefined;
  const lines = [`${server}: the script did not run as planned.`];
  for (const queue of unused) {
    lines.push(
      `  ${queue.remaining.length} unused step(s), the next one would have answered ${queue.noun} request #${queue.answered + 1}:`,
      ...queue.remaining.map((step, index) => `    ${index + 1}. ${step.label}`),
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
  for (const queue of queues) {
    if (queue.quietWhenIdle === true && queue.answered === 0 && queue.remaining.length === 0) continue;
    lines.push(`  ${capitalize(queue.noun)} requests answered: ${queue.answered}.`);
  }
  return lines.join('\n');
}

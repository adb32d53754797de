import type {
  ElicitationAnswer,
  ElicitationMode,
  ElicitationQuestion,
  ElicitationRecord,
  SessionEvent,
} from './contract/index.js';

/**
 * MCP elicitation as both backends' sessions answer it: under `ask`, a request becomes an
 * `elicitation-request` event of the turn in flight and waits for the consumer; otherwise (or with
 * no turn to report to) it is declined at once. Every request ends with an `elicitation-resolved`
 * record, which names the fields answered, never their values. An abort (the tool call stopped,
 * the turn interrupted) or `cancelPending()` cancels a request still waiting.
 */
export class ElicitationBroker {
  private count = 0;
  private readonly pending = new Set<(answer: ElicitationAnswer) => void>();

  constructor(private readonly mode: ElicitationMode = 'decline') {}

  /** Answers one request; `report` pushes an event into the turn in flight (none: nobody to ask). */
  async elicit(
    question: ElicitationQuestion,
    report: ((event: SessionEvent) => void) | undefined,
    signal?: AbortSignal,
  ): Promise<ElicitationAnswer> {
    this.count += 1;
    const id = `elicitation-${this.count}`;
    const asks = this.mode === 'ask' && report !== undefined && !signal?.aborted;
    const answer: ElicitationAnswer = asks
      ? await this.ask(id, question, report, signal)
      : { action: 'decline' };
    const record: ElicitationRecord = {
      id,
      server: question.server,
      message: question.message,
      mode: question.mode,
      fields: answer.action === 'accept' ? Object.keys(answer.content) : [],
      action: answer.action,
      answeredBy: asks ? 'user' : 'policy',
    };
    report?.({ type: 'elicitation-resolved', elicitation: record });
    return answer;
  }

  /** Cancels every request still waiting (interrupt, close). */
  cancelPending(): void {
    for (const respond of [...this.pending]) respond({ action: 'cancel' });
  }

  private ask(
    id: string,
    question: ElicitationQuestion,
    report: (event: SessionEvent) => void,
    signal: AbortSignal | undefined,
  ): Promise<ElicitationAnswer> {
    return new Promise((resolve) => {
      const respond = (answer: ElicitationAnswer) => {
        if (!this.pending.delete(respond)) return;
        signal?.removeEventListener('abort', onAbort);
        resolve(answer);
      };
      const onAbort = () => respond({ action: 'cancel' });
      this.pending.add(respond);
      signal?.addEventListener('abort', onAbort, { once: true });
      report({ type: 'elicitation-request', request: { ...question, id, respond } });
    });
  }
}

/** Who answers a one-shot run's elicitations: nobody; each is declined and reported to `onRecord`. */
export function declineReporting(
  onRecord: (record: ElicitationRecord) => void,
): (question: ElicitationQuestion, signal?: AbortSignal) => Promise<ElicitationAnswer> {
  const broker = new ElicitationBroker('decline');
  return (question, signal) =>
    broker.elicit(
      question,
      (event) => {
        if (event.type === 'elicitation-resolved') onRecord(event.elicitation);
      },
      signal,
    );
}

import { randomUUID } from 'node:crypto';
import { type Part, TaskState } from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';
import type { SessionEvent } from '../backends/contract/index.js';
import { agentMessage, dataPart, decisionOf, textOf, textPart } from './a2a-messages.js';
import type { LiveTurn } from './live-turn.js';
import { readTurn, type TurnStop } from './read-turn.js';
import { ServeProblem } from './serve-problem.js';
import type { ServeServices } from './serve-services.js';
import type { ServedSession } from './session-registry.js';

// The A2A side of a served agent: a context is a conversation (one served session), a task is
// one turn. A call waiting for approval, or a Novarch hold, is the task in `input-required`;
// the caller answers an approval with a data part {"approved": true|false, "reason"?} (or the
// text "approve"/"deny") on the same task. A hold is decided by an operator only: an answer that
// tries to decide it is refused and the task stays in input-required; any other message waits
// for the operator's decision.

/** Publishes the task's status, with an agent message when there are parts. */
type PublishStatus = (state: TaskState, parts?: Part[]) => void;

function statusPublisher(bus: ExecutionEventBus, taskId: string, contextId: string): PublishStatus {
  return (state, parts) =>
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: {
          state,
          timestamp: new Date().toISOString(),
          message: parts ? agentMessage(parts, taskId, contextId) : undefined,
        },
        metadata: {},
      }),
    );
}

/** The working status that tells the caller an operator decided a hold. */
function publishHoldResolved(status: PublishStatus, event: SessionEvent): void {
  if (event.type === 'hold-resolved')
    status(TaskState.TASK_STATE_WORKING, [
      textPart(
        `Novarch hold ${event.hold.holdId} ${event.hold.status}${event.hold.decidedBy ? ` by ${event.hold.decidedBy}` : ''}${event.hold.rationale ? `: ${event.hold.rationale}` : ''}`,
      ),
      dataPart({
        kind: 'hold_resolved',
        holdId: event.hold.holdId,
        status: event.hold.status,
        decidedBy: event.hold.decidedBy ?? null,
      }),
    ]);
}

/** A turn that stopped to wait: the task in input-required, saying for what. False when it did not. */
function publishWaiting(stop: TurnStop, turn: LiveTurn, status: PublishStatus): boolean {
  if (stop === 'approval') {
    const approval = turn.pendingApprovals()[0];
    status(TaskState.TASK_STATE_INPUT_REQUIRED, [
      textPart(
        `${approval?.toolName} needs your approval (${approval?.reason}): answer with {"approved": true|false} or "approve"/"deny"`,
      ),
      dataPart({
        kind: 'approval',
        callId: approval?.callId,
        toolName: approval?.toolName,
        arguments: approval?.arguments ?? {},
      }),
    ]);
    return true;
  }
  if (stop === 'hold') {
    const hold = turn.pendingHolds()[0];
    status(TaskState.TASK_STATE_INPUT_REQUIRED, [
      textPart(
        `${hold?.toolName} is held by Novarch rules ${hold?.ruleIds.join(', ')} for an operator's decision: ${hold?.rationale}. Send any message to wait for it.`,
      ),
      dataPart({
        kind: 'policy_hold',
        holdId: hold?.holdId,
        toolName: hold?.toolName,
        deadline: hold?.deadline,
      }),
    ]);
    return true;
  }
  return false;
}

/** The end of a finished task: the answer as an artifact and completed, else failed or canceled. */
function publishOutcome(
  turn: LiveTurn,
  stop: TurnStop,
  bus: ExecutionEventBus,
  ids: { taskId: string; contextId: string },
  status: PublishStatus,
): void {
  const result = turn.result;
  if (!result || result.is_error) {
    const canceled = stop === 'finished' && result?.error_reason?.includes('interrupt');
    status(canceled ? TaskState.TASK_STATE_CANCELED : TaskState.TASK_STATE_FAILED, [
      textPart(`the agent run failed: ${result?.error_reason ?? turn.failure ?? 'interrupted'}`),
    ]);
    return;
  }
  bus.publish(
    AgentEvent.artifactUpdate({
      ...ids,
      artifact: {
        artifactId: randomUUID(),
        name: 'response',
        description: 'The agent’s answer',
        parts: [textPart(result.response)],
        metadata: undefined,
        extensions: [],
      },
      lastChunk: true,
      append: false,
      metadata: undefined,
    }),
  );
  status(TaskState.TASK_STATE_COMPLETED, [textPart(result.response)]);
}

/** The A2A executor over the session registry. */
export class ServeA2aExecutor implements AgentExecutor {
  private readonly contexts = new Map<string, string>();
  private readonly turns = new Map<string, { turn: LiveTurn; session: ServedSession; contextId: string }>();

  constructor(private readonly services: ServeServices) {}

  execute = async (request: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId } = request;
    const status = statusPublisher(bus, taskId, contextId);
    const known = this.turns.get(taskId);
    const turn =
      known && (!known.turn.finished || known.turn.hasUnread)
        ? this.#followUp(request, bus, known.turn, status)
        : await this.#startTask(request, bus);
    if (turn === undefined) return;
    status(TaskState.TASK_STATE_WORKING);
    const stop = await readTurn(turn, (event) => publishHoldResolved(status, event));
    if (publishWaiting(stop, turn, status)) return;
    this.turns.delete(taskId);
    publishOutcome(turn, stop, bus, { taskId, contextId }, status);
  };

  /**
   * A follow-up on a task in input-required: the answer to its approval, or a wait on its hold.
   * Undefined when the task stays in input-required (no decision, or one that tries to decide a hold).
   */
  #followUp(
    request: RequestContext,
    bus: ExecutionEventBus,
    turn: LiveTurn,
    status: PublishStatus,
  ): LiveTurn | undefined {
    const { taskId, contextId } = request;
    bus.publish(
      AgentEvent.task({
        ...(request.task ?? emptyTask(taskId, contextId)),
        history: [...(request.task?.history ?? []), request.userMessage],
      }),
    );
    const decision = decisionOf(request.userMessage);
    const approval = turn.pendingApprovals()[0];
    const hold = turn.pendingHolds()[0];
    if (approval) {
      if (!decision) {
        status(TaskState.TASK_STATE_INPUT_REQUIRED, [
          textPart(
            `${approval.toolName} still needs your approval: answer with {"approved": true|false} or "approve"/"deny"`,
          ),
        ]);
        return undefined;
      }
      turn.answer(
        approval.callId,
        decision.approved
          ? { behavior: 'allow', scope: 'once' }
          : { behavior: 'deny', reason: decision.reason ?? 'denied by the user' },
      );
    } else if (hold && decision) {
      status(TaskState.TASK_STATE_INPUT_REQUIRED, [
        textPart(
          `refused: ${hold.toolName} is held by Novarch (rules ${hold.ruleIds.join(', ')}); a hold is decided by a Novarch operator, never by the agent's caller, and stays pending. Send any other message to wait for the decision.`,
        ),
        dataPart({ kind: 'policy_hold', holdId: hold.holdId, refused: true }),
      ]);
      return undefined;
    }
    return turn;
  }

  /** A new task: a turn of the context's session (made for a new context), submitted. */
  async #startTask(request: RequestContext, bus: ExecutionEventBus): Promise<LiveTurn> {
    const { taskId, contextId } = request;
    const owner = request.context.user?.userName ?? 'anonymous';
    const message = textOf(request.userMessage);
    if (message === '') throw new ServeProblem(400, 'params.message.parts: no text part to send the agent');
    let session: ServedSession;
    const mapped = this.contexts.get(`${owner}\u0000${contextId}`);
    if (mapped !== undefined) session = await this.services.registry.get(mapped, owner);
    else {
      session = await this.services.registry.create(owner);
      this.contexts.set(`${owner}\u0000${contextId}`, session.id);
    }
    const turn = this.services.registry.startTurn(session, message, 'a2a');
    this.turns.set(taskId, { turn, session, contextId });
    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: {
          state: TaskState.TASK_STATE_SUBMITTED,
          timestamp: new Date().toISOString(),
          message: undefined,
        },
        artifacts: [],
        history: [request.userMessage],
        metadata: { sessionId: session.id },
      }),
    );
    return turn;
  }

  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    const known = this.turns.get(taskId);
    if (known) await known.turn.interrupt();
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: known?.contextId ?? '',
        status: {
          state: TaskState.TASK_STATE_CANCELED,
          timestamp: new Date().toISOString(),
          message: undefined,
        },
        metadata: {},
      }),
    );
  };
}

function emptyTask(taskId: string, contextId: string) {
  return {
    id: taskId,
    contextId,
    status: { state: TaskState.TASK_STATE_WORKING, timestamp: new Date().toISOString(), message: undefined },
    artifacts: [],
    history: [],
    metadata: {},
  };
}

import { randomUUID } from 'node:crypto';
import { type Message, type Part, Role, TaskState } from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { z } from 'zod';
import type { LiveTurn } from './live-turn.js';
import { readTurn } from './read-turn.js';
import { ServeProblem } from './serve-problem.js';
import type { ServeServices } from './serve-services.js';
import type { ServedSession } from './session-registry.js';

// The A2A side of a served agent: a context is a conversation (one served session), a task is
// one turn. A call waiting for approval, or a Novarch hold, is the task in `input-required`;
// the caller answers an approval with a data part {"approved": true|false, "reason"?} (or the
// text "approve"/"deny") on the same task. A hold is decided by an operator only: an answer that
// tries to decide it is refused and the task stays in input-required; any other message waits
// for the operator's decision.

const textPart = (value: string): Part => ({
  content: { $case: 'text', value },
  metadata: undefined,
  filename: '',
  mediaType: 'text/plain',
});
const dataPart = (value: Record<string, unknown>): Part => ({
  content: { $case: 'data', value },
  metadata: undefined,
  filename: '',
  mediaType: 'application/json',
});

function agentMessage(parts: Part[], taskId: string, contextId: string): Message {
  return {
    role: Role.ROLE_AGENT,
    messageId: randomUUID(),
    parts,
    taskId,
    contextId,
    extensions: [],
    metadata: {},
    referenceTaskIds: [],
  };
}

/** An approval answered in a data part (checked: it comes from the caller). */
const ApprovalAnswer = z.object({ approved: z.boolean(), reason: z.string().min(1).optional() });

/** The decision an answer carries: a data part {approved}, or the text approve/deny. */
function decisionOf(message: Message): { approved: boolean; reason?: string } | undefined {
  for (const part of message.parts) {
    const content = part.content;
    if (content?.$case === 'data') {
      const answer = ApprovalAnswer.safeParse(content.value);
      if (answer.success) return answer.data;
    }
    if (content?.$case === 'text') {
      const text = content.value.trim().toLowerCase();
      if (/^(approve|approved|allow|yes)\b/.test(text)) return { approved: true };
      if (/^(deny|denied|refuse|no)\b/.test(text)) return { approved: false };
    }
  }
  return undefined;
}

function textOf(message: Message): string {
  return message.parts
    .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
    .join('\n')
    .trim();
}

/** The A2A executor over the session registry. */
export class ServeA2aExecutor implements AgentExecutor {
  private readonly contexts = new Map<string, string>();
  private readonly turns = new Map<string, { turn: LiveTurn; session: ServedSession; contextId: string }>();

  constructor(private readonly services: ServeServices) {}

  execute = async (request: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId } = request;
    const owner = request.context.user?.userName ?? 'anonymous';
    const status = (state: TaskState, parts?: Part[]) =>
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
    const known = this.turns.get(taskId);
    let turn: LiveTurn;
    if (known && (!known.turn.finished || known.turn.hasUnread)) {
      // A follow-up on a task in input-required: the answer to its approval, or a wait on its hold.
      bus.publish(
        AgentEvent.task({
          ...(request.task ?? emptyTask(taskId, contextId)),
          history: [...(request.task?.history ?? []), request.userMessage],
        }),
      );
      turn = known.turn;
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
          return;
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
        return;
      }
    } else {
      const message = textOf(request.userMessage);
      if (message === '') throw new ServeProblem(400, 'params.message.parts: no text part to send the agent');
      let session: ServedSession;
      const mapped = this.contexts.get(`${owner}\u0000${contextId}`);
      if (mapped !== undefined) session = await this.services.registry.get(mapped, owner);
      else {
        session = await this.services.registry.create(owner);
        this.contexts.set(`${owner}\u0000${contextId}`, session.id);
      }
      turn = this.services.registry.startTurn(session, message, 'a2a');
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
    }
    status(TaskState.TASK_STATE_WORKING);
    const stop = await readTurn(turn, (event) => {
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
    });
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
      return;
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
      return;
    }
    this.turns.delete(taskId);
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
        taskId,
        contextId,
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
  };

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

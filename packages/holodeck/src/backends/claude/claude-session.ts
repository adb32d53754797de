import { randomUUID } from 'node:crypto';
import {
  type CanUseTool,
  type OnElicitation,
  type Query,
  query,
  type SDKMessage,
  type SDKUserMessage,
} from '@anthropic-ai/claude-agent-sdk';
import { AgentSessionError } from '../../errors.js';
import { errorMessage } from '../../support.js';
import { AsyncQueue } from '../async-queue.js';
import type {
  AgentSession,
  ApprovalDecision,
  BackendWarning,
  CreateSessionOptions,
  ExecutionResult,
  SessionEvent,
  TurnOptions,
} from '../contract/index.js';
import { ElicitationBroker } from '../elicitation-broker.js';
import { buildExecutionResult, mcpFailureReason } from './build-execution-result.js';
import { approvalReason, needsApproval, unapprovableMessage } from './build-sdk-options.js';
import { finishRun, withGovernance } from './finish-run.js';
import type { GovernedRun } from './governance/prepare-governance.js';
import { LimitToolGate } from './limit-tool-gate.js';
import { type PreparedAgent, queryOptions } from './prepared-agent.js';
import { progressReporter } from './report-run-progress.js';
import { RunAccumulator, type TurnState } from './run-accumulator.js';
import { SessionCostMeter } from './session-cost-meter.js';
import { ClaudeProcessHandle, describeExit } from './spawn-claude-process.js';
import { toElicitationQuestion } from './to-elicitation-question.js';

interface Turn {
  accumulator: RunAccumulator;
  events: AsyncQueue<SessionEvent>;
  startedAt: number;
  /** Tells the turn's listener (TurnOptions.onProgress) of its progress. */
  reportProgress: (state: TurnState) => void;
}

/**
 * A multi-turn conversation on ONE long-lived CLI process: the prompt is a stream of user messages
 * (streaming input), so turns share the process and its session; text streams as partial-message
 * deltas. A dead process ends the turn in flight with an error event, and later sends fail at once.
 */
export class ClaudeSession implements AgentSession {
  private readonly input = new AsyncQueue<SDKUserMessage>();
  private readonly handle = new ClaudeProcessHandle();
  private readonly run: Query;
  private current: Turn | undefined;
  private failure: AgentSessionError | undefined;
  private closed = false;
  private announced = false;
  private id: string | undefined;
  /** The session id given to resume, if any. */
  private readonly resumed: string | undefined;
  /** What the last turn did when it ended without a result (stopped, or the process died). */
  private unfinished: ExecutionResult | undefined;
  /** Tools the user allowed for the rest of the session (approvals: 'ask'). */
  private readonly allowedForSession = new Set<string>();
  /** Answers of approval requests still waiting; interrupt() and close() deny them. */
  private readonly pendingApprovals = new Set<(decision: ApprovalDecision) => void>();
  /** MCP servers' requests for input: asked of the consumer, or declined (options.elicitations). */
  private readonly elicitations: ElicitationBroker;
  /** Holds a limited turn's tool calls until its progress was checked (limit-tool-gate.ts). */
  private readonly toolGate = new LimitToolGate();
  /** Turns the CLI's running session total into each turn's own cost. */
  private readonly costs = new SessionCostMeter();
  /** What the owner does once the process is gone (free its slot, close the Novarch session). */
  private readonly closeCallbacks: (() => Promise<void> | void)[] = [];

  constructor(
    private readonly prepared: PreparedAgent,
    private readonly warnings: readonly BackendWarning[],
    options: CreateSessionOptions = {},
    private readonly governed?: GovernedRun,
  ) {
    this.id = options.resume;
    this.resumed = options.resume;
    this.elicitations = new ElicitationBroker(options.elicitations);
    this.run = query({
      prompt: this.input,
      options: queryOptions(prepared, {
        handle: this.handle,
        partialMessages: true,
        composesMessages: true,
        toolGate: this.toolGate,
        ...(options.resume ? { resume: options.resume } : {}),
        ...(options.workingDirectory ? { workingDirectory: options.workingDirectory } : {}),
        ...(options.traffic ? { traffic: options.traffic } : {}),
        ...(governed ? { extraHooks: governed.hooks } : {}),
        ...(options.approvals === 'ask' ? { canUseTool: this.askUser } : {}),
        onElicitation: this.elicit,
      }),
    });
    void this.pump();
    // Novarch's holds are reported from the gate's hook, while the turn they belong to waits.
    governed?.watchHolds((event) => this.current?.events.push(event));
  }

  /** Starts the process and waits until it accepted its configuration. */
  async ready(): Promise<void> {
    try {
      await this.run.initializationResult();
    } catch (error) {
      throw this.fail(error, false);
    }
    if (this.resumed) await this.readResumedCost(this.resumed);
  }

  /**
   * A resumed session's running total continues from what its transcript saved, so its first
   * result would carry the earlier turns' cost too: ask the CLI for the total it starts from. The
   * control request is marked experimental in the SDK; when it fails, that first turn's cost is
   * unknown (null), never the history's.
   */
  private async readResumedCost(sessionId: string): Promise<void> {
    try {
      const usage = await this.run.usage_EXPERIMENTAL_MAY_CHANGE_DO_NOT_RELY_ON_THIS_API_YET({
        skipBehaviors: true,
      });
      const total = usage.session?.total_cost_usd;
      this.costs.resumedAt(sessionId, typeof total === 'number' ? total : null);
    } catch {
      this.costs.resumedAt(sessionId, null);
    }
  }

  get sessionId(): string | undefined {
    return this.id;
  }

  /** Process id of the CLI, for diagnostics. */
  get processId(): number | undefined {
    return this.handle.pid;
  }

  async send(message: string, options: TurnOptions = {}): Promise<ExecutionResult> {
    let finished: ExecutionResult | undefined;
    let error: string | undefined;
    for await (const event of this.sendStreaming(message, options)) {
      if (event.type === 'finish') finished = event.result;
      if (event.type === 'error') error = event.message;
      // send() has nobody to ask.
      if (event.type === 'approval-request')
        event.request.respond({
          behavior: 'deny',
          reason: unapprovableMessage(event.request.toolName, this.permissionMode()),
        });
      if (event.type === 'elicitation-request') event.request.respond({ action: 'decline' });
    }
    if (!finished) {
      const partial = this.unfinished;
      throw new AgentSessionError(error ?? 'the turn ended without a result', partial ? { partial } : {});
    }
    return finished;
  }

  /**
   * Sends `message` to the model as it is: every message is marked `client_composed` (CLI
   * 2.1.248+), which the CLI delivers as written. Unmarked, the CLI would run a message that
   * starts with `/` as one of its own slash commands (`/help`, `/clear`, `/compact`…), and expand
   * each `@path` (and `@server:resource`) mention in it: it reads the file itself and attaches its
   * content to the request, whatever agent.yaml allows (no file tools, a file outside the working
   * directory: `summarise @/etc/passwd` would send the file). Marking every message is fail-closed:
   * nothing is expanded, whatever mention syntax the CLI understands. The model still gets the
   * environment context and CLAUDE.md (setting_sources); what a marked turn goes without is the
   * CLI's per-turn reminders at its start (they come after its first tool call).
   */
  sendStreaming(message: string, options: TurnOptions = {}): AsyncGenerator<SessionEvent> {
    return this.turnOf(message, true, options);
  }

  /** `verbatim: false` only for the CLI's own commands that HoloDeck sends (reset's `/clear`). */
  private async *turnOf(
    message: string,
    verbatim: boolean,
    options: TurnOptions = {},
  ): AsyncGenerator<SessionEvent> {
    if (this.failure) throw this.failure;
    if (this.closed) throw new AgentSessionError('the session is closed');
    if (this.current) throw new AgentSessionError('a turn is already in progress; wait for its finish event');
    const turn: Turn = {
      accumulator: new RunAccumulator(true, this.prepared.toolKindOf),
      events: new AsyncQueue(),
      startedAt: Date.now(),
      reportProgress: progressReporter(options.onProgress, this.prepared.prices),
    };
    this.current = turn;
    this.unfinished = undefined;
    if (options.onProgress && options.signal) this.toolGate.arm(options.signal);
    let finished = false;
    this.input.push({
      type: 'user',
      message: { role: 'user', content: message },
      parent_tool_use_id: null,
      uuid: randomUUID(),
      ...(verbatim ? { client_composed: true } : {}),
    } as SDKUserMessage);
    try {
      for await (const event of turn.events) {
        if (event.type === 'finish') finished = true;
        yield event;
      }
    } finally {
      this.toolGate.disarm();
      if (this.current === turn) this.current = undefined;
      if (!finished) this.unfinished = this.partialOf(turn);
    }
    if (this.failure && !this.closed) throw this.failure;
  }

  /**
   * Starts a new conversation in the same process (`/clear`): new session id, no history. The
   * next request carries a short "local command" caveat block, which a fresh process would not.
   */
  async reset(): Promise<void> {
    // The CLI's own `/clear`, as a command (a plain string).
    for await (const _event of this.turnOf('/clear', false)) {
      // the local command's turn has nothing to report
    }
  }

  /** Stops the turn in flight with the SDK's interrupt; the process and the conversation go on. */
  async interrupt(): Promise<void> {
    if (!this.current || this.closed || this.failure) return;
    this.denyPending('the user interrupted the turn');
    await this.run.interrupt();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // A turn in flight is being stopped (a limit, a timeout): kill the process before its input
    // closes, or the CLI answers the closed input by asking the model once more (run-once.ts).
    const stopping = this.handle.stop(this.current ? 0 : undefined);
    this.denyPending('the session was closed');
    this.input.end();
    this.current?.events.end();
    this.run.close();
    await stopping;
    for (const callback of this.closeCallbacks) await callback();
  }

  /** Runs `callback` when close() has seen the process exit (the backend frees the slot there). */
  afterClose(callback: () => Promise<void> | void): void {
    this.closeCallbacks.push(callback);
  }

  /** permission_mode as agent.yaml spells it (a session that asks never runs under acceptAll). */
  private permissionMode(): 'manual' | 'acceptEdits' | 'acceptAll' {
    const mode = this.prepared.plan.options.permissionMode;
    return mode === 'acceptEdits' ? 'acceptEdits' : mode === 'bypassPermissions' ? 'acceptAll' : 'manual';
  }

  /** An MCP server's request for input, during the turn in flight (none: declined). */
  private readonly elicit: OnElicitation = (request, { signal }) => {
    const turn = this.closed ? undefined : this.current;
    return this.elicitations.elicit(
      toElicitationQuestion(request),
      turn ? (event) => turn.events.push(event) : undefined,
      signal,
    );
  };

  private denyPending(reason: string): void {
    this.elicitations.cancelPending();
    for (const respond of [...this.pendingApprovals]) respond({ behavior: 'deny', reason });
  }

  /**
   * The CLI's permission prompts in a session that asks its user (approvals: 'ask'): a call that
   * needs approval becomes an `approval-request` event of the turn, and waits for its answer.
   */
  private readonly askUser: CanUseTool = async (toolName, input, { signal, toolUseID }) => {
    if (!needsApproval(toolName) || this.allowedForSession.has(toolName))
      return { behavior: 'allow', updatedInput: input };
    const turn = this.current;
    if (!turn || this.closed)
      return { behavior: 'deny', message: unapprovableMessage(toolName, this.permissionMode()) };
    const decision = await new Promise<ApprovalDecision>((resolve) => {
      const respond = (answer: ApprovalDecision) => {
        if (!this.pendingApprovals.delete(respond)) return;
        signal.removeEventListener('abort', onAbort);
        resolve(answer);
      };
      const onAbort = () => respond({ behavior: 'deny', reason: 'the request was cancelled' });
      this.pendingApprovals.add(respond);
      signal.addEventListener('abort', onAbort, { once: true });
      turn.events.push({
        type: 'approval-request',
        request: {
          callId: toolUseID,
          toolName,
          arguments: input,
          reason: approvalReason(this.permissionMode()),
          respond,
        },
      });
    });
    if (decision.behavior === 'allow') {
      if (decision.scope === 'session') this.allowedForSession.add(toolName);
      return { behavior: 'allow', updatedInput: input };
    }
    return { behavior: 'deny', message: `The user denied this ${toolName} call: ${decision.reason}` };
  };

  private async pump(): Promise<void> {
    try {
      for await (const message of this.run) this.dispatch(message);
      if (!this.closed) this.fail(new Error('the claude process ended'), true);
    } catch (error) {
      if (!this.closed) this.fail(error, true);
    }
  }

  private dispatch(message: SDKMessage): void {
    this.governed?.observe(message);
    const turn = this.current;
    if (!turn) return;
    for (const event of turn.accumulator.accept(message)) turn.events.push(event);
    const state = turn.accumulator.state;
    turn.reportProgress(state);
    this.toolGate.observe(message);
    if (message.type === 'system' && message.subtype === 'init') {
      this.id = message.session_id;
      const mcpFailure = mcpFailureReason(state, this.prepared.mcpServers);
      if (mcpFailure) {
        this.fail(new AgentSessionError(mcpFailure), true);
        this.run.close();
        return;
      }
      if (!this.announced) {
        this.announced = true;
        turn.events.push({
          type: 'session-start',
          sessionId: message.session_id,
          model: message.model,
          tools: message.tools,
          warnings: [...this.warnings],
        });
      }
    }
    if (message.type === 'result') {
      this.id = message.session_id;
      const total = message.total_cost_usd;
      // The meter follows the CLI's running total even when pricing: sets the cost (a later turn
      // may need it); the cost from pricing: is the turn's own already.
      const metered = typeof total === 'number' ? this.costs.turnCost(message.session_id, total) : undefined;
      const final = finishRun(this.prepared, state, turn.startedAt, this.governed, (built) =>
        metered !== undefined && !this.prepared.prices
          ? {
              ...built,
              cost_usd: metered,
              ...(metered === null
                ? { cost_unknown_reason: "the CLI could not say the resumed session's cost before this turn" }
                : {}),
            }
          : built,
      );
      this.current = undefined;
      void this.finishTurn(turn, final);
    }
  }

  /** Ends a turn with its result and, when governed, the session's verdicts (as the AI SDK backend does). */
  private async finishTurn(turn: Turn, final: ExecutionResult): Promise<void> {
    try {
      const result = await withGovernance(final, this.governed);
      if (result.is_error && result.error_reason)
        turn.events.push({ type: 'error', code: 'run-failed', message: result.error_reason });
      turn.events.push({ type: 'finish', result });
    } catch (error) {
      // Verdicts that cannot be read are not reported as none: the turn fails, saying why.
      turn.events.push({
        type: 'error',
        code: 'governance-unreadable',
        cause: error,
        message: `Novarch's verdicts could not be read: ${errorMessage(error)}`,
      });
    } finally {
      turn.events.end();
    }
  }

  private partialOf(turn: Turn): ExecutionResult {
    return buildExecutionResult(turn.accumulator.state, {
      startedAt: turn.startedAt,
      credentialHint: this.prepared.credentialHint,
      mcpServers: this.prepared.mcpServers,
      ...(this.prepared.prices ? { prices: this.prepared.prices } : {}),
    });
  }

  private fail(error: unknown, started: boolean): AgentSessionError {
    const detail = error instanceof Error && !this.handle.exited ? ` (${error.message})` : '';
    this.failure ??=
      error instanceof AgentSessionError
        ? error
        : new AgentSessionError(`${describeExit(this.handle)}${detail}`, {
            cause: error,
            phase: started ? 'run' : 'spawn',
          });
    const turn = this.current;
    if (turn) {
      turn.events.push({
        type: 'error',
        code: 'process-failed',
        message: this.failure.message,
        cause: this.failure,
      });
      turn.events.end();
    }
    return this.failure;
  }
}

import type { SdkMcpToolDefinition } from '@anthropic-ai/claude-agent-sdk';
import type { Decision } from '../engine/novarch-engine.js';
import { NovarchError, NovarchKillError } from '../errors.js';
import type { ActionContext, Citations, SessionRecord } from '../model/records.js';
import { type ActiveSession, augur } from './augur-session.js';

/** What an SDK MCP tool handler resolves to (the MCP `CallToolResult`). */
export type ToolResult = Awaited<ReturnType<SdkMcpToolDefinition['handler']>>;

/** A tool declared with `augurAsyncTool`, checked once at declaration. */
export type GovernedToolSpec<Args> =
  | { kind: 'read'; name: string; toolName: string }
  | {
      kind: 'write';
      name: string;
      toolName: string;
      actionType: string;
      contextBuilder: (args: Args) => ActionContext;
    };

/** How a judged write ends: it runs, it is refused (the model reads why), or the session is stopped. */
type WriteOutcome =
  | { type: 'run' }
  | { type: 'refuse'; reason: string }
  | { type: 'kill'; error: NovarchKillError };

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A refusal as the model sees it: an error tool result, worded as the hook gate words its refusals. */
function refusedResult(reason: string): ToolResult {
  return { content: [{ type: 'text', text: `Novarch: ${reason}` }], isError: true };
}

/** The abort signal of an MCP request, when the caller passed one: a waiting hold stops on it. */
function signalOf(extra: unknown): AbortSignal | undefined {
  return isRecord(extra) && extra.signal instanceof AbortSignal ? extra.signal : undefined;
}

function operatorKill(session: ActiveSession, killed: SessionRecord): NovarchKillError {
  return new NovarchKillError({
    sessionId: session.record.id,
    citations: {
      ruleIds: [],
      evidenceIds: [],
      rationale: `killed by an operator: ${killed.killReason ?? 'no reason given'}`,
    },
  });
}

/**
 * Runs one call of an `augurAsyncTool` handler under the current `augur.session`: a read runs and
 * becomes evidence; a write runs only on a judge pass or an operator approval.
 */
export async function runGovernedTool<Args>(
  spec: GovernedToolSpec<Args>,
  handler: (args: Args, extra: unknown) => Promise<ToolResult>,
  args: Args,
  extra: unknown,
): Promise<ToolResult> {
  const session = augur.current();
  if (!session)
    throw new NovarchError(
      `tool "${spec.name}" was called outside augur.session(...): call its handler inside the governed session it belongs to`,
    );
  let killed: SessionRecord | undefined;
  try {
    killed = await session.engine.isKilled(session.record.id);
  } catch (error) {
    return refusedResult(`could not check the session (${describeError(error)}); refused to be safe`);
  }
  if (killed) throw operatorKill(session, killed);
  if (spec.kind === 'read') return runRead(session, spec.toolName, handler, args, extra);
  const outcome = await judgeWrite(session, spec, args, signalOf(extra));
  if (outcome.type === 'kill') throw outcome.error;
  if (outcome.type === 'refuse') return refusedResult(outcome.reason);
  return handler(args, extra);
}

async function runRead<Args>(
  session: ActiveSession,
  toolName: string,
  handler: (args: Args, extra: unknown) => Promise<ToolResult>,
  args: Args,
  extra: unknown,
): Promise<ToolResult> {
  const startedAt = new Date().toISOString();
  const record = async (output: unknown, isError: boolean): Promise<void> => {
    try {
      await session.engine.store.recordEvidence({
        sessionId: session.record.id,
        toolName,
        input: args,
        output,
        isError,
        startedAt,
        finishedAt: new Date().toISOString(),
      });
    } catch {
      // As on the gate: evidence that cannot be stored leaves the next write judged without it,
      // and it fails closed there. The read itself already ran.
    }
  };
  let result: ToolResult;
  try {
    result = await handler(args, extra);
  } catch (error) {
    await record(describeError(error), true);
    throw error;
  }
  await record(result, result.isError === true);
  return result;
}

/** Judges a write and waits for its hold; every failure of Novarch itself refuses (fail-closed). */
async function judgeWrite<Args>(
  session: ActiveSession,
  spec: Extract<GovernedToolSpec<Args>, { kind: 'write' }>,
  args: Args,
  signal: AbortSignal | undefined,
): Promise<WriteOutcome> {
  let context: ActionContext;
  try {
    context = spec.contextBuilder(args);
  } catch (error) {
    return {
      type: 'refuse',
      reason: `the input of "${spec.name}" does not fit its write spec (${describeError(error)})`,
    };
  }
  const reasoning = isRecord(args) && typeof args.reasoning === 'string' ? args.reasoning : undefined;
  try {
    const decision = await session.engine.decide(session.record, {
      actionType: spec.actionType,
      toolName: spec.toolName,
      input: args,
      context,
      ...(reasoning !== undefined ? { reasoning } : {}),
    });
    return await followVerdict(session, decision, signal);
  } catch (error) {
    return { type: 'refuse', reason: `the gate failed (${describeError(error)}); refused to be safe` };
  }
}

async function followVerdict(
  session: ActiveSession,
  decision: Decision,
  signal: AbortSignal | undefined,
): Promise<WriteOutcome> {
  const { citations } = decision.verdict;
  if (decision.verdict.kind === 'pass') return { type: 'run' };
  if (decision.verdict.kind === 'kill') return stop(session, decision, citations);
  if (!decision.hold) return { type: 'refuse', reason: 'held without a hold record; refused to be safe' };
  const hold = await session.engine.awaitHold(decision.hold, signal);
  if (hold.status === 'approved') {
    // An operator may have killed the session while this write was held.
    const killed = await session.engine.isKilled(session.record.id);
    return killed ? { type: 'kill', error: operatorKill(session, killed) } : { type: 'run' };
  }
  if (hold.status === 'denied') {
    const rationale = `an operator denied this action: ${hold.rationale ?? 'no rationale given'}`;
    return { type: 'kill', error: killError(session, decision, { ...citations, rationale }) };
  }
  const rationale =
    hold.status === 'skipped' ? 'an operator skipped the hold' : 'no operator decided the hold in time';
  return stop(session, decision, { ...citations, rationale });
}

function killError(session: ActiveSession, decision: Decision, citations: Citations): NovarchKillError {
  return new NovarchKillError({ sessionId: session.record.id, actionId: decision.action.id, citations });
}

/** A kill, a skip or a timeout stops the session: recorded in the store, then thrown. */
async function stop(session: ActiveSession, decision: Decision, citations: Citations): Promise<WriteOutcome> {
  try {
    await session.engine.store.killSession(session.record.id, citations.rationale);
  } catch {
    // The write is refused all the same: the error below reaches the loop that awaits the handler.
  }
  return { type: 'kill', error: killError(session, decision, citations) };
}

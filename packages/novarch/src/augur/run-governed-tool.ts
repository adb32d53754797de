import type { SdkMcpToolDefinition } from '@anthropic-ai/claude-agent-sdk';
import { NovarchError, NovarchKillError } from '../errors.js';
import { checkSession } from '../governor/check-session.js';
import {
  type GovernedWrite,
  hasErrorFlag,
  refusalText,
  type SessionStop,
} from '../governor/governed-call.js';
import { judgeGovernedWrite } from '../governor/judge-governed-write.js';
import { runGovernedRead } from '../governor/run-governed-read.js';
import { type ActiveSession, currentSession } from '../session/active-session.js';
import { isRecord } from '../support.js';

/** What an SDK MCP tool handler resolves to (the MCP `CallToolResult`). */
export type ToolResult = Awaited<ReturnType<SdkMcpToolDefinition['handler']>>;

/** A tool declared with `augurAsyncTool`, checked once at declaration. */
export type GovernedToolSpec<Args> =
  | { kind: 'read'; name: string; toolName: string }
  | ({ kind: 'write' } & GovernedWrite<Args>);

/** A refusal as the model sees it: an error tool result, worded as the hook gate words its refusals. */
function refusedResult(reason: string): ToolResult {
  return { content: [{ type: 'text', text: refusalText(reason) }], isError: true };
}

/** The abort signal of an MCP request, when the caller passed one: a waiting hold stops on it. */
function signalOf(extra: unknown): AbortSignal | undefined {
  return isRecord(extra) && extra.signal instanceof AbortSignal ? extra.signal : undefined;
}

function killError(session: ActiveSession, stop: SessionStop): NovarchKillError {
  return new NovarchKillError({
    sessionId: session.record.id,
    ...(stop.actionId !== undefined ? { actionId: stop.actionId } : {}),
    citations: stop.citations,
  });
}

/**
 * Runs one call of an `augurAsyncTool` handler under the current `augur.session`, on the same core
 * as `NovarchToolGovernor` (`src/governor/`): a read runs and becomes evidence; a write runs only on
 * a judge pass or an operator approval. This path has no latch: the loop that awaits the handler
 * is where a stop must land, so a stop (and an operator deny) throws `NovarchKillError`, and the
 * stop is stored, so the session's later calls throw before running.
 */
export async function runGovernedTool<Args>(
  spec: GovernedToolSpec<Args>,
  handler: (args: Args, extra: unknown) => Promise<ToolResult>,
  args: Args,
  extra: unknown,
): Promise<ToolResult> {
  const session = currentSession();
  if (!session)
    throw new NovarchError(
      `tool "${spec.name}" was called outside augur.session(...): call its handler inside the governed session it belongs to`,
    );
  const check = await checkSession(session);
  if (check.type === 'refuse') return refusedResult(check.reason);
  if (check.type === 'stop') throw killError(session, check.stop);
  const signal = signalOf(extra);
  if (spec.kind === 'read') {
    const read = await runGovernedRead(session, spec.toolName, args, () => handler(args, extra), {
      signal,
      isErrorOutput: hasErrorFlag,
    });
    return read.output;
  }
  const judgement = await judgeGovernedWrite(session, spec, args, { signal });
  if (judgement.type === 'refuse') return refusedResult(judgement.reason);
  if (judgement.type === 'deny')
    throw killError(session, { citations: judgement.citations, actionId: judgement.actionId });
  if (judgement.type === 'stop') throw killError(session, judgement.stop);
  return handler(args, extra);
}

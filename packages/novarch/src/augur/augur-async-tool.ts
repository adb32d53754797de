import type { AnyZodRawShape, InferShape, SdkMcpToolDefinition } from '@anthropic-ai/claude-agent-sdk';
import { NovarchError } from '../errors.js';
import type { ToolKind } from '../gate/write-spec.js';
import type { ActionContext } from '../model/records.js';
import { loadClaudeAgentSdk } from './load-claude-agent-sdk.js';
import { type GovernedToolSpec, runGovernedTool, type ToolResult } from './run-governed-tool.js';

/** How `augurAsyncTool` governs a tool: a read becomes evidence, a write is judged before it runs. */
export interface AugurToolOptions<Args> {
  kind: ToolKind;
  /** The action type team rules know this write as (`kind: 'write'` only, and required there). */
  actionType?: string;
  /**
   * Builds the action's context from the tool input (`kind: 'write'` only, and required there);
   * a throw refuses the write.
   */
  contextBuilder?: (args: Args) => ActionContext;
  /**
   * The tool name evidence and actions carry, the one team rules match (`e.tool`). Default `name`;
   * set `mcp__<server>__<name>` to share one rules file with the hook gate.
   */
  toolName?: string;
}

/** An SDK MCP tool handler, as the SDK's `tool()` takes it. */
export type AugurToolHandler<Schema extends AnyZodRawShape> = (
  args: InferShape<Schema>,
  extra: unknown,
) => Promise<ToolResult>;

const ASYNC_FUNCTION_TAG = '[object AsyncFunction]';

/**
 * The decorator floor, for hand-rolled loops that await SDK MCP tool handlers themselves and so
 * have no hook seam. Returns the SDK tool definition (from the SDK's own `tool()`, ready for
 * `createSdkMcpServer`) whose handler runs governed inside the current `augur.session`:
 * - a read runs and is recorded as evidence (input, output, timing, and whether it failed);
 * - a write is judged first: a pass or an operator approval runs it; a judge kill, an operator
 *   deny, a skipped or timed-out hold, or an operator kill of the session throws `NovarchKillError`
 *   from the tool body, because the loop that awaits the handler is where it must land (there is
 *   no latch and no `raiseIfKilled` on this path). Kills, skips and timeouts are also written to
 *   the store, so the session shows as killed and its later calls throw before running.
 * - a write Novarch cannot judge (a context builder that throws, a store that fails) does not run,
 *   nor one whose MCP request is aborted while it is held (the hold is closed): the handler returns
 *   an error result `Novarch: ...` the model can read, as the gate's refusal.
 * The verdict handling is `NovarchToolGovernor`'s (one core, `src/governor/`), without its latch.
 *
 * It is async because the Claude Agent SDK is an optional peer, loaded only here on first use, so
 * `import 'novarch'` works without it: `const refund = await augurAsyncTool(...)`. Misuse (a
 * handler that is not an `async` function, a write without `actionType`/`contextBuilder`) rejects
 * that promise, before any tool call.
 */
export async function augurAsyncTool<Schema extends AnyZodRawShape>(
  name: string,
  description: string,
  inputSchema: Schema,
  options: AugurToolOptions<InferShape<Schema>>,
  handler: AugurToolHandler<Schema>,
): Promise<SdkMcpToolDefinition<Schema>> {
  const governed = checkToolDeclaration(name, options, handler);
  const { tool } = await loadClaudeAgentSdk('augurAsyncTool');
  return tool(name, description, inputSchema, (args, extra) =>
    runGovernedTool(governed, handler, args, extra),
  );
}

function checkToolDeclaration<Args>(
  name: string,
  options: AugurToolOptions<Args>,
  handler: unknown,
): GovernedToolSpec<Args> {
  const where = `augurAsyncTool("${name}")`;
  if (typeof handler !== 'function' || Object.prototype.toString.call(handler) !== ASYNC_FUNCTION_TAG) {
    const got = typeof handler === 'function' ? 'a function that is not async' : typeof handler;
    throw new NovarchError(
      `${where}: the handler must be an async function, got ${got}; declare it as \`async (args) => { ... }\``,
    );
  }
  const toolName = options.toolName ?? name;
  const { actionType, contextBuilder } = options;
  if (options.kind === 'read') {
    if (actionType !== undefined || contextBuilder !== undefined)
      throw new NovarchError(
        `${where}: kind "read" takes no actionType or contextBuilder, because reads are not judged; use kind "write" to gate this tool`,
      );
    return { kind: 'read', name, toolName };
  }
  if (options.kind !== 'write')
    throw new NovarchError(
      `${where}: kind is ${typeof options.kind === 'string' ? JSON.stringify(options.kind) : String(options.kind)}, which is not a tool kind: use exactly "read" or "write" (lower case, no spaces)`,
    );
  if (!actionType || typeof contextBuilder !== 'function') {
    const missing = [!actionType && 'actionType', typeof contextBuilder !== 'function' && 'contextBuilder']
      .filter(Boolean)
      .join(' and ');
    throw new NovarchError(
      `${where}: kind "write" needs actionType and contextBuilder (missing: ${missing}), so the judge knows what the write does`,
    );
  }
  return { kind: 'write', name, toolName, actionType, contextBuilder };
}

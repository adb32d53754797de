import type { ActionContext } from '../model/records.js';

/** How a write tool's input becomes an Action for the judge. */
export interface WriteSpec {
  actionType: string;
  /** Builds the action's context from the tool input; a throw refuses the write (fail-closed). */
  contextBuilder: (args: Record<string, unknown>) => ActionContext;
}

/** Whether a tool is read (runs, becomes evidence) or write (judged before it runs). */
export type ToolKind = 'read' | 'write';

/** Tools that may run without a kind: the runtime needs ToolSearch to load MCP tool schemas. */
export const DEFAULT_UNMAPPED_ALLOWLIST: ReadonlySet<string> = new Set(['ToolSearch']);

/** A GenericContext: the minimum an action carries. */
export function genericContext(recordId: string, summary: string, amount?: number): ActionContext {
  return { recordId, summary, ...(amount !== undefined ? { amount } : {}) };
}

import { NovarchError } from '../errors.js';
import type { ActionContext } from '../model/records.js';

/** How a write tool's input becomes an Action for the judge. */
export interface WriteSpec {
  actionType: string;
  /** Builds the action's context from the tool input; a throw refuses the write (fail-closed). */
  contextBuilder: (args: Record<string, unknown>) => ActionContext;
  /**
   * Checks an input against the tool's input schema: undefined when it fits, else what is wrong.
   * Needed for approve with edit: an operator's edit of a tool without it never runs.
   */
  validateInput?: (args: Record<string, unknown>) => string | undefined;
}

/** Whether a tool is read (runs, becomes evidence) or write (judged before it runs). */
export type ToolKind = 'read' | 'write';

/** The tool kinds there are, spelt exactly (no case folding, no trimming). */
export const TOOL_KINDS: readonly ToolKind[] = ['read', 'write'];

/**
 * The tool kinds of `toolKinds` as a map of own entries, every value checked: a kind that is not
 * exactly `read` or `write` (`'Write'`, `' write'`, `'readonly'`) is refused here, at construction,
 * because a tool whose kind is not `write` would otherwise run unjudged. `where` names the option
 * in the message (e.g. `toolKinds`).
 */
export function checkToolKinds(toolKinds: unknown, where = 'toolKinds'): Map<string, ToolKind> {
  if (typeof toolKinds !== 'object' || toolKinds === null || Array.isArray(toolKinds))
    throw new NovarchError(
      `${where} must be an object of tool name → "read" or "write", got ${Array.isArray(toolKinds) ? 'an array' : toolKinds === null ? 'null' : typeof toolKinds}`,
    );
  const kinds = new Map<string, ToolKind>();
  for (const [tool, kind] of Object.entries(toolKinds)) {
    if (kind !== 'read' && kind !== 'write')
      throw new NovarchError(
        `${where}[${JSON.stringify(tool)}] is ${describeKind(kind)}, which is not a tool kind: use exactly "read" or "write" (lower case, no spaces)`,
      );
    kinds.set(tool, kind);
  }
  return kinds;
}

function describeKind(kind: unknown): string {
  if (typeof kind === 'string') return JSON.stringify(kind);
  if (kind === undefined) return 'undefined';
  if (kind === null) return 'null';
  return `${typeof kind} ${String(JSON.stringify(kind))}`;
}

/** Frozen sets (the Set constructor calls `add`, before a subclass's own fields exist). */
const sealed = new WeakSet<object>();

/** A Set that cannot be changed after construction: `add`, `delete` and `clear` throw. */
class FrozenSet<T> extends Set<T> {
  constructor(values: Iterable<T>) {
    super(values);
    sealed.add(this);
    Object.freeze(this);
  }
  override add(value: T): this {
    if (sealed.has(this))
      throw new TypeError('DEFAULT_UNMAPPED_ALLOWLIST is frozen: pass allowUnmapped instead');
    return super.add(value);
  }
  override delete(_value: T): boolean {
    throw new TypeError('DEFAULT_UNMAPPED_ALLOWLIST is frozen: pass allowUnmapped instead');
  }
  override clear(): void {
    throw new TypeError('DEFAULT_UNMAPPED_ALLOWLIST is frozen: pass allowUnmapped instead');
  }
}

/**
 * Tools that may run without a kind: the runtime needs ToolSearch to load MCP tool schemas.
 * Frozen: widening it at run time would let unmapped tools through every gate of the process.
 */
export const DEFAULT_UNMAPPED_ALLOWLIST: ReadonlySet<string> = new FrozenSet(['ToolSearch']);

/** A GenericContext: the minimum an action carries, and its amount with the amount's unit (`USD`). */
export function genericContext(
  recordId: string,
  summary: string,
  amount?: number,
  unit?: string,
): ActionContext {
  return {
    recordId,
    summary,
    ...(amount !== undefined ? { amount } : {}),
    ...(unit !== undefined ? { unit } : {}),
  };
}

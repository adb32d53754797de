import type { ActionContext } from '../model/records.js';

/** How a write tool's input becomes an Action for the judge. */
export interface WriteSpec {
  actionType: string;
  /** Builds the action's context from the tool input; a throw refuses the write (fail-closed). */
  contextBuilder: (args: Record<string, unknown>) => ActionContext;
}

/** Whether a tool is read (runs, becomes evidence) or write (judged before it runs). */
export type ToolKind = 'read' | 'write';

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

/** A GenericContext: the minimum an action carries. */
export function genericContext(recordId: string, summary: string, amount?: number): ActionContext {
  return { recordId, summary, ...(amount !== undefined ? { amount } : {}) };
}

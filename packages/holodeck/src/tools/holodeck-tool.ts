import type { RunTraffic } from './run-traffic.js';
import type { Elicit } from './tool-elicitation.js';

/** What a tool call returns to the model: text, and whether it is an error result. */
export interface ToolOutput {
  text: string;
  isError: boolean;
}

/** Per-call options of `HoloDeckTool.execute`. */
export interface ToolExecuteOptions {
  /** Aborted when the run stops (Ctrl-C, a case timeout) or the tool's own timeout passes. */
  signal?: AbortSignal;
  /** Answers MCP elicitation requests made during this call (unset: they are declined). */
  elicit?: Elicit;
  /** The recorded run this call belongs to (`--record`/`--replay`): its embeddings requests and replayed result. */
  traffic?: RunTraffic;
}

/**
 * A tool as HoloDeck defines it, whatever backend offers it to the model: a name, a description,
 * the JSON Schema of its input exactly as written in agent.yaml, and `execute`. `execute` never
 * throws for the tool's own failures: invalid arguments, a thrown error or a timeout come back as
 * an error output the model can read. Each backend wraps these in its own tool mechanism (the
 * Claude backend in an in-process SDK MCP server, the AI SDK backend as AI SDK tools).
 */
export interface HoloDeckTool {
  /** The short name from agent.yaml (the model sees it as is, or inside an MCP server name). */
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  execute(input: unknown, options?: ToolExecuteOptions): Promise<ToolOutput>;
}

/** A set of loaded tools and what must be released with them (user modules' `close()`). */
export interface LoadedTools {
  readonly tools: readonly HoloDeckTool[];
  /** Awaits every loaded module's exported `close()` once; later calls do nothing. */
  close(): Promise<void>;
}

import type { CallWarning } from 'ai';
import {
  emptyTokenUsage,
  type TokenUsage,
  type ToolCall,
  type ToolKind,
  type ToolResult,
} from '../contract/index.js';

/** What the stream of one run (one user message, possibly many model steps) has told so far. */
export interface TurnState {
  toolCalls: ToolCall[];
  toolResults: ToolResult[];
  /** Tool name of each call id, so results can be reported with their tool. */
  toolNames: Map<string, string>;
  /** Text of the model step in progress. */
  stepText: string;
  /** Text of the last finished step: the final answer when the run ends. */
  finalText: string;
  /** Model steps finished (the turns the agent loop used). */
  steps: number;
  /** Model steps started (the one in progress included). */
  stepsStarted: number;
  /** The step in progress (or the last one) called tools: the loop asks the model again. */
  wantsNextMessage: boolean;
  /** Why the last finished step ended (`stop`, `tool-calls`, `length`, ...). */
  lastFinishReason?: string;
  /** Usage summed over finished steps. */
  usage: TokenUsage;
  /** The error that ended the run (API error after retries, network, ...), as the SDK reported it. */
  error?: { value: unknown };
  /** What the provider warned about the calls of this run (unsupported settings). */
  callWarnings: CallWarning[];
  /** Set when the run was aborted; the reason as the SDK gave it. */
  abort?: { reason?: string };
  /** The kind of a called tool, by its name; every call is stamped with it. */
  toolKindOf?: (name: string) => ToolKind;
}

/** A TurnState before the first stream part. */
export function createTurnState(toolKindOf?: (name: string) => ToolKind): TurnState {
  return {
    ...(toolKindOf ? { toolKindOf } : {}),
    toolCalls: [],
    toolResults: [],
    toolNames: new Map(),
    stepText: '',
    finalText: '',
    steps: 0,
    stepsStarted: 0,
    wantsNextMessage: false,
    usage: emptyTokenUsage(),
    callWarnings: [],
  };
}

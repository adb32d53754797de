import type {
  SDKMessage,
  SDKPartialAssistantMessage,
  SDKResultMessage,
} from '@anthropic-ai/claude-agent-sdk';
import type { ToolKind } from '../../execution-result.js';
import { isRecord } from '../../support.js';
import type { SessionEvent, ToolCall, ToolResult } from '../contract/index.js';

/** What the message stream of one turn has told us so far, before the final result. */
export interface TurnState {
  sessionId?: string;
  model?: string;
  tools: string[];
  toolCalls: ToolCall[];
  toolResults: ToolResult[];
  /** Text of the last top-level assistant message (the final answer when the run ends). */
  lastAssistantText: string;
  /** MCP servers from agent.yaml that the CLI could not connect (name and status). */
  mcpFailures: { name: string; status: string }[];
  /** An API-level error the CLI reported on an assistant message (e.g. authentication_failed). */
  assistantError?: string;
  /**
   * Usage of the model responses seen so far, summed once per response id (the CLI sends one
   * assistant message per content block, each with the response's usage as it was at the
   * response's start; with partial messages on, `message_delta` brings each response's final
   * output count): what a run that is stopped before its result spent.
   */
  streamedUsage: Record<string, number>;
  /** Model responses seen so far (each a model turn). */
  streamedResponses: number;
  /** The latest top-level response called tools: the CLI will ask the model again. */
  wantsNextMessage: boolean;
  result?: SDKResultMessage;
}

/** The numeric fields of a usage object (the CLI adds nested details, which are not counts). */
function numbersOf(usage: unknown): Record<string, number> {
  if (!isRecord(usage)) return {};
  return Object.fromEntries(
    Object.entries(usage).filter((entry): entry is [string, number] => typeof entry[1] === 'number'),
  );
}

/** Statuses of an MCP server that will not come back by itself during the run. */
const FAILED_MCP_STATUSES = new Set(['failed', 'needs-auth']);

/** Flattens tool_result content (a string or an array of blocks) to text. */
export function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined ? '' : JSON.stringify(content);
  return content
    .map((block) => {
      if (!isRecord(block)) return '';
      if (block.type === 'text' && typeof block.text === 'string') return block.text;
      return `[${String(block.type)}]`;
    })
    .join('\n');
}

/**
 * Folds the SDK message stream of one turn into TurnState and yields the stream events it
 * implies. Tool calls and results are paired by id; only top-level messages count
 * (subagent messages carry a parent_tool_use_id and are not the agent's own calls).
 * `streamingDeltas` is true when partial messages are on: text then arrives as deltas,
 * otherwise each assistant message's text is yielded whole.
 */
export class RunAccumulator {
  readonly state: TurnState = {
    tools: [],
    toolCalls: [],
    toolResults: [],
    lastAssistantText: '',
    mcpFailures: [],
    streamedUsage: {},
    streamedResponses: 0,
    wantsNextMessage: false,
  };
  private readonly toolNames = new Map<string, string>();
  /** Each response's usage by its id, the latest known (a `message_delta` updates its counts). */
  private readonly responseUsage = new Map<string, Record<string, number>>();
  /** The response each stream (the agent's: null; a subagent's: its tool call id) is streaming. */
  private readonly streaming = new Map<string | null, string>();

  constructor(
    private readonly streamingDeltas: boolean,
    /** The kind of a called tool, by its runtime name; every call is stamped with it. */
    private readonly toolKindOf?: (runtimeName: string) => ToolKind,
  ) {}

  *accept(message: SDKMessage): Generator<SessionEvent> {
    switch (message.type) {
      case 'system':
        if (message.subtype === 'init') {
          this.state.sessionId = message.session_id;
          this.state.model = message.model;
          this.state.tools = message.tools;
          this.state.mcpFailures = message.mcp_servers.filter((server) =>
            FAILED_MCP_STATUSES.has(server.status),
          );
        }
        return;
      case 'stream_event': {
        this.acceptStreamUsage(message.parent_tool_use_id, message.event);
        if (message.parent_tool_use_id !== null) return;
        const event = message.event;
        if (event.type === 'content_block_delta') {
          if (event.delta.type === 'text_delta') yield { type: 'text-delta', text: event.delta.text };
          if (event.delta.type === 'thinking_delta')
            yield { type: 'thinking-delta', text: event.delta.thinking };
        }
        return;
      }
      case 'assistant':
        this.addUsage(message.message, message.parent_tool_use_id === null);
        if (message.parent_tool_use_id !== null) return;
        yield* this.acceptAssistant(message.message.content, message.error);
        return;
      case 'user':
        if (message.parent_tool_use_id !== null) return;
        yield* this.acceptToolResults(message.message.content);
        return;
      case 'result':
        this.state.result = message;
        this.state.sessionId = message.session_id;
        return;
      default:
        return;
    }
  }

  /** A response starts (first seen by its id): counted once, with the usage it started with. */
  private addUsage(response: { id?: unknown; usage?: unknown }, topLevel: boolean): void {
    const id = typeof response.id === 'string' ? response.id : `anonymous-${this.responseUsage.size}`;
    if (this.responseUsage.has(id)) return;
    this.responseUsage.set(id, numbersOf(response.usage));
    this.state.streamedResponses += 1;
    if (topLevel) this.state.wantsNextMessage = false;
    this.sumUsage();
  }

  /** `message_start` opens a response; `message_delta` carries its counts so far (cumulative). */
  private acceptStreamUsage(stream: string | null, event: SDKPartialAssistantMessage['event']): void {
    if (event.type === 'message_start') {
      this.streaming.set(stream, event.message.id);
      this.addUsage(event.message, stream === null);
      return;
    }
    const id = this.streaming.get(stream);
    if (event.type !== 'message_delta' || id === undefined) return;
    const usage = this.responseUsage.get(id);
    if (!usage) return;
    Object.assign(usage, numbersOf(event.usage));
    this.sumUsage();
  }

  private sumUsage(): void {
    const sum: Record<string, number> = {};
    for (const usage of this.responseUsage.values())
      for (const [key, value] of Object.entries(usage)) sum[key] = (sum[key] ?? 0) + value;
    this.state.streamedUsage = sum;
  }

  private *acceptAssistant(content: readonly unknown[], error: string | undefined): Generator<SessionEvent> {
    if (error) this.state.assistantError = error;
    const texts: string[] = [];
    for (const block of content) {
      if (!isRecord(block)) continue;
      if (block.type === 'text' && typeof block.text === 'string') {
        texts.push(block.text);
        if (!this.streamingDeltas) yield { type: 'text-delta', text: block.text };
      } else if (block.type === 'thinking' && typeof block.thinking === 'string' && !this.streamingDeltas) {
        yield { type: 'thinking-delta', text: block.thinking };
      } else if (
        block.type === 'tool_use' &&
        typeof block.id === 'string' &&
        typeof block.name === 'string'
      ) {
        const args = isRecord(block.input) ? block.input : {};
        this.toolNames.set(block.id, block.name);
        this.state.toolCalls.push({
          name: block.name,
          arguments: args,
          call_id: block.id,
          ...(this.toolKindOf ? { kind: this.toolKindOf(block.name) } : {}),
        });
        this.state.wantsNextMessage = true;
        yield { type: 'tool-call', callId: block.id, name: block.name, arguments: args };
      }
    }
    if (texts.length) this.state.lastAssistantText = texts.join('');
  }

  private *acceptToolResults(content: unknown): Generator<SessionEvent> {
    if (!Array.isArray(content)) return;
    for (const block of content) {
      if (!isRecord(block) || block.type !== 'tool_result' || typeof block.tool_use_id !== 'string') continue;
      const result: ToolResult = {
        call_id: block.tool_use_id,
        result: toolResultText(block.content),
        is_error: block.is_error === true,
      };
      this.state.toolResults.push(result);
      yield {
        type: 'tool-result',
        callId: result.call_id,
        name: this.toolNames.get(result.call_id) ?? '',
        result: result.result,
        isError: result.is_error,
      };
    }
  }
}

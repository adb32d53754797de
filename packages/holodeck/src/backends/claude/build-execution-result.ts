import type { ValidateFunction } from 'ajv';
import { type ExecutionResult, emptyTokenUsage, type TokenUsage } from '../contract/index.js';
import { costOfUsage, type TokenPrices } from '../pricing/token-prices.js';
import { describeMcpFailures, type McpServerPlace } from './describe-mcp-failure.js';
import { mapResultSubtype } from './map-result-subtype.js';
import type { TurnState } from './run-accumulator.js';

export interface ResultContext {
  startedAt: number;
  /** Compiled `response_format` schema, when one is configured. */
  validateStructuredOutput?: ValidateFunction;
  /** Names the credential variable to check on an authentication failure. */
  credentialHint: string;
  /** agent.yaml's MCP servers by name, so a failure names its entry and cause. */
  mcpServers?: ReadonlyMap<string, McpServerPlace>;
  /** `pricing:` in agent.yaml: the cost is the turn's tokens at these prices, not the CLI's figure. */
  prices?: TokenPrices;
}

/** The CLI's usage counts in HoloDeck's neutral names. */
export function mapUsage(usage: Record<string, unknown> | undefined): TokenUsage {
  const read = (key: string) => (typeof usage?.[key] === 'number' ? (usage[key] as number) : 0);
  const prompt = read('input_tokens');
  const completion = read('output_tokens');
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    cache_read_tokens: read('cache_read_input_tokens'),
    cache_creation_tokens: read('cache_creation_input_tokens'),
  };
}

function describeApiError(state: TurnState, context: ResultContext, fallback: string): string {
  const status = state.result?.subtype === 'success' ? state.result.api_error_status : undefined;
  if (state.assistantError === 'authentication_failed' || status === 401) {
    return `authentication failed: ${context.credentialHint}. ${fallback}`.trim();
  }
  return fallback;
}

/** Why the run cannot be trusted when an MCP server of agent.yaml did not connect, else undefined. */
export function mcpFailureReason(
  state: TurnState,
  servers?: ReadonlyMap<string, McpServerPlace>,
): string | undefined {
  if (!state.mcpFailures.length) return undefined;
  return describeMcpFailures(state.mcpFailures, servers, 'its tools are missing');
}

/** Results that end a run still trying to give its structured output. */
const STRUCTURED_RETRY_ENDS = new Set(['error_max_turns', 'error_max_structured_output_retries']);

function schemaProblems(validate: ValidateFunction, output: unknown): string {
  if (validate(output)) return 'it matched, but came too late';
  return (validate.errors ?? [])
    .map((error) => `${error.instancePath || '(root)'} ${error.message}`)
    .join('; ');
}

/**
 * A run that ran out of turns or retries while its structured output did not match
 * response_format: the schema errors of its last attempt (the CLI's StructuredOutput tool call),
 * not only "max_turns limit reached".
 */
function describeStructuredFailure(state: TurnState, context: ResultContext, failure: string): string {
  const validate = context.validateStructuredOutput;
  const attempts = state.toolCalls.filter((call) => call.name === 'StructuredOutput');
  const last = attempts.at(-1);
  if (!validate || !last)
    return `the agent gave no structured output for response_format (it answered in text); ${failure}`;
  return `the agent's structured output did not match response_format (${attempts.length} attempt(s); the last: ${schemaProblems(validate, last.arguments)}); ${failure}`;
}

/**
 * Turns the state of a finished turn into an ExecutionResult. A run that says `success`
 * but lacks valid structured output while `response_format` is set is an error: the
 * subtype is not trusted, the field is checked.
 */
export function buildExecutionResult(state: TurnState, context: ResultContext): ExecutionResult {
  const result = state.result;
  const base: ExecutionResult = {
    response: state.lastAssistantText,
    tool_calls: state.toolCalls,
    tool_results: state.toolResults,
    token_usage: emptyTokenUsage(),
    num_turns: 0,
    is_error: true,
    cost_usd: 0,
    duration_ms: Date.now() - context.startedAt,
    ...(state.sessionId ? { session_id: state.sessionId } : {}),
  };
  const mcpFailure = mcpFailureReason(state, context.mcpServers);
  if (mcpFailure) return { ...base, error_reason: mcpFailure };
  if (!result) {
    // Stopped before its result: the tokens it used are known, its price is not.
    const spent = mapUsage(state.streamedUsage);
    return {
      ...base,
      token_usage: spent,
      num_turns: state.streamedResponses,
      ...(spent.total_tokens > 0
        ? context.prices
          ? { cost_usd: costOfUsage(spent, context.prices, 'cache-apart') }
          : { cost_usd: null, cost_unknown_reason: 'the run stopped before the Claude CLI reported its cost' }
        : {}),
      error_reason: 'the agent process ended without a result',
    };
  }

  const usage = mapUsage(result.usage as unknown as Record<string, unknown>);
  const outcome: ExecutionResult = {
    ...base,
    response: result.subtype === 'success' && result.result ? result.result : state.lastAssistantText,
    token_usage: usage,
    num_turns: result.num_turns,
    // The result's usage is the turn's own (its total_cost_usd is the session's running total).
    cost_usd: context.prices
      ? costOfUsage(usage, context.prices, 'cache-apart')
      : (result.total_cost_usd ?? 0),
    is_error: false,
  };
  const failure = mapResultSubtype(result);
  if (failure && context.validateStructuredOutput && STRUCTURED_RETRY_ENDS.has(result.subtype))
    return { ...outcome, is_error: true, error_reason: describeStructuredFailure(state, context, failure) };
  if (failure) return { ...outcome, is_error: true, error_reason: describeApiError(state, context, failure) };

  if (context.validateStructuredOutput && result.subtype === 'success') {
    const output = result.structured_output;
    if (output === undefined || output === null) {
      return {
        ...outcome,
        is_error: true,
        error_reason: 'response_format is configured but the agent returned no structured output',
      };
    }
    if (!context.validateStructuredOutput(output)) {
      const problems = (context.validateStructuredOutput.errors ?? [])
        .map((error) => `${error.instancePath || '(root)'} ${error.message}`)
        .join('; ');
      return {
        ...outcome,
        structured_output: output,
        is_error: true,
        error_reason: `structured output does not match response_format: ${problems}`,
      };
    }
    return { ...outcome, structured_output: output, response: JSON.stringify(output) };
  }
  return outcome;
}

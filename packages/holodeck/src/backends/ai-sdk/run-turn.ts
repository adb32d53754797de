import {
  type CallWarning,
  type LanguageModel,
  type ModelMessage,
  type Output,
  stepCountIs,
  streamText,
  type ToolSet,
} from 'ai';
import type { ValidateFunction } from 'ajv';
import type { ToolKind } from '../../execution-result.js';
import type { Elicit, RunTraffic } from '../../tools/index.js';
import type { ExecutionResult, SessionEvent } from '../contract/index.js';
import type { ModelPricing } from '../pricing/model-pricing.js';
import type { TurnInput, TurnOutcome } from './ai-sdk-runtime.js';
import { approveToolCalls } from './approve-tool-calls.js';
import type { CallSettings } from './build-call-settings.js';
import { buildExecutionResult } from './build-execution-result.js';
import type { ErrorContext } from './describe-run-error.js';
import { fromModelMessages } from './from-model-messages.js';
import type { RunGovernance } from './open-run-governance.js';
import { progressReporter } from './report-run-progress.js';
import type { SessionMessage } from './session-message.js';
import { toModelMessages } from './to-model-messages.js';
import type { ToolApproval } from './tool-approval-policy.js';
import { translateStreamPart } from './translate-stream-part.js';
import { createTurnState } from './turn-state.js';

/** Everything fixed for every run of one agent. */
export interface TurnPlan {
  model: LanguageModel;
  /** The model of a recorded run, whose requests go through the run's own fetch. */
  modelFor?: (traffic: RunTraffic) => Promise<LanguageModel>;
  system: string;
  /**
   * The agent's tools as AI SDK tools; governed runs get a set bound to their governor, a session's
   * runs one bound to who answers MCP elicitation.
   */
  tools: (governance?: RunGovernance, elicit?: Elicit, traffic?: RunTraffic) => ToolSet;
  call: CallSettings;
  /** Whether a call of a tool (by the name the model sees) asks first (`tool-approval-policy.ts`). */
  approvalOf: (name: string) => ToolApproval;
  /** The response_format as the SDK's structured output (sent as a json_schema response format). */
  output?: Output.Output;
  validateStructuredOutput?: ValidateFunction;
  errorContext: ErrorContext;
  /** How the model's runs are priced. */
  pricing: ModelPricing;
  /** Receives what the provider warned about a call (each run's warnings, in order). */
  onCallWarning: (warning: CallWarning) => void;
  /** The kind of a called tool, by its name (from agent.yaml). */
  toolKindOf: (name: string) => ToolKind;
}

/** A run whose session Novarch stopped is a failed run, whatever the model said afterwards. */
async function withGovernance(
  result: ExecutionResult,
  governance: RunGovernance | undefined,
): Promise<ExecutionResult> {
  if (!governance) return result;
  const killed = governance.killReason();
  return {
    ...result,
    ...(killed ? { is_error: true, error_reason: killed } : {}),
    governance: await governance.summary(),
  };
}

/**
 * One run of the agent loop on the AI SDK: `streamText` with the history, the tools and a step
 * limit (max turns). Streaming is the only path: `send` and `invokeOnce` read the same events.
 * Errors (after the SDK's bounded retries) and aborts end the stream and become the result.
 */
export async function* runTurn(plan: TurnPlan, input: TurnInput): AsyncGenerator<SessionEvent, TurnOutcome> {
  const startedAt = Date.now();
  const state = createTurnState(plan.toolKindOf);
  const user: SessionMessage = { role: 'user', content: input.message };
  // Messages of the finished steps: what the next request of a session must carry.
  let responseMessages: ModelMessage[] = [];
  const { call } = plan;
  const offered = plan.tools(input.governance, input.elicit, input.traffic);
  const model = input.traffic && plan.modelFor ? await plan.modelFor(input.traffic) : plan.model;
  const tools = input.approval ? approveToolCalls(offered, input.approval, plan.approvalOf) : offered;
  const run = streamText({
    // Governed: the model's text before a call is read from its stream, for Novarch's holds.
    model: input.governance ? input.governance.stepText.wrap(model) : model,
    system: plan.system,
    messages: toModelMessages([...input.history, user]),
    ...(Object.keys(tools).length ? { tools } : {}),
    stopWhen: stepCountIs(call.maxTurns),
    maxRetries: call.maxRetries,
    ...(call.temperature !== undefined ? { temperature: call.temperature } : {}),
    ...(call.maxOutputTokens !== undefined ? { maxOutputTokens: call.maxOutputTokens } : {}),
    providerOptions: call.providerOptions,
    ...(plan.output ? { output: plan.output } : {}),
    ...(input.signal ? { abortSignal: input.signal } : {}),
    // The SDK logs stream errors to the console by default; here they become the run's result.
    onError: () => {},
    onStepFinish: (step) => {
      responseMessages = step.response.messages;
    },
  });
  const reportProgress = progressReporter(input.onProgress, plan.pricing);
  try {
    for await (const part of run.fullStream) {
      const events = translateStreamPart(part, state);
      reportProgress(part, state);
      yield* events;
    }
  } catch (error) {
    if (input.signal?.aborted) state.abort ??= {};
    else state.error ??= { value: error };
  }
  for (const warning of state.callWarnings) plan.onCallWarning(warning);
  const built = buildExecutionResult(state, {
    ...plan.errorContext,
    startedAt,
    maxTurns: call.maxTurns,
    pricing: plan.pricing,
    ...(plan.validateStructuredOutput ? { validateStructuredOutput: plan.validateStructuredOutput } : {}),
    ...(input.sessionId ? { sessionId: input.sessionId } : {}),
  });
  const result = await withGovernance(built, input.governance);
  return {
    result,
    messages: [user, ...fromModelMessages(responseMessages)],
    aborted: state.abort !== undefined,
  };
}

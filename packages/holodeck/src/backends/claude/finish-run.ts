import type { ExecutionResult } from '../contract/index.js';
import { buildExecutionResult } from './build-execution-result.js';
import type { GovernedRun } from './governance/prepare-governance.js';
import type { PreparedAgent } from './prepared-agent.js';
import type { TurnState } from './run-accumulator.js';

/**
 * What a one-shot run or a session turn ended with, built one way for both: the accumulated state
 * as an ExecutionResult (structured output validated), failed when Novarch killed the session,
 * whatever the model said afterwards. `withCost` adjusts the built result's cost (a session turn's
 * own share of the CLI's running total).
 */
export function finishRun(
  prepared: PreparedAgent,
  state: TurnState,
  startedAt: number,
  governed: GovernedRun | undefined,
  withCost: (built: ExecutionResult) => ExecutionResult = (built) => built,
): ExecutionResult {
  const built = buildExecutionResult(state, {
    startedAt,
    credentialHint: prepared.credentialHint,
    mcpServers: prepared.mcpServers,
    ...(prepared.prices ? { prices: prepared.prices } : {}),
    ...(prepared.validateStructuredOutput
      ? { validateStructuredOutput: prepared.validateStructuredOutput }
      : {}),
  });
  const result = withCost(built);
  const killed = governed?.killReason();
  return killed ? { ...result, is_error: true, error_reason: killed } : result;
}

/** The result with the governed session's verdicts (`governance`), as both backends report them. */
export async function withGovernance(
  result: ExecutionResult,
  governed: GovernedRun | undefined,
): Promise<ExecutionResult> {
  return governed ? { ...result, governance: await governed.summary() } : result;
}

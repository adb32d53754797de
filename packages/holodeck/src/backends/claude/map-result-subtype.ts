import type { SDKResultMessage } from '@anthropic-ai/claude-agent-sdk';

/** Human-readable reason for a result the CLI marked as failed, or undefined on success. */
export function mapResultSubtype(result: SDKResultMessage): string | undefined {
  switch (result.subtype) {
    case 'success':
      return result.is_error ? result.result || 'the agent run failed' : undefined;
    case 'error_max_turns':
      return 'max_turns limit reached';
    case 'error_max_budget_usd':
      return 'maximum budget (USD) reached';
    case 'error_max_structured_output_retries':
      return 'the agent did not produce output matching response_format after several attempts';
    case 'error_during_execution':
      return result.errors.length ? result.errors.join('; ') : 'the agent run failed during execution';
    default:
      return 'the agent run ended with an unknown result';
  }
}

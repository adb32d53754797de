import { NovarchError } from '../errors.js';
import { errorMessage } from '../support.js';

/** The Claude Agent SDK module, an optional peer dependency of novarch. */
export type ClaudeAgentSdk = typeof import('@anthropic-ai/claude-agent-sdk');

/**
 * Loads the Claude Agent SDK on first use. Novarch never imports it statically (only its types),
 * so `import 'novarch'` works without it; `feature` names what needed it in the error.
 */
export async function loadClaudeAgentSdk(feature: string): Promise<ClaudeAgentSdk> {
  try {
    return await import('@anthropic-ai/claude-agent-sdk');
  } catch (error) {
    const missing = error instanceof Error && 'code' in error && error.code === 'ERR_MODULE_NOT_FOUND';
    const reason = errorMessage(error);
    throw new NovarchError(
      missing
        ? `${feature} needs the Claude Agent SDK, an optional peer dependency of novarch: npm install @anthropic-ai/claude-agent-sdk`
        : `${feature} could not load @anthropic-ai/claude-agent-sdk (${reason})`,
      { cause: error },
    );
  }
}

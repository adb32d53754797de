import type { BackendWarning, ExecutionResult } from '../backends/contract/index.js';
import { selectBackend } from '../backends/select-backend.js';
import { loadAgent } from '../load-agent.js';

export interface OneShotOutcome {
  result: ExecutionResult;
  warnings: BackendWarning[];
}

export interface OneShotOptions {
  env?: Record<string, string | undefined>;
  /** Continue a saved conversation (its session id) instead of starting a fresh one. */
  resume?: string;
  /** Called with warnings as soon as they are known, before the agent runs. */
  onWarnings?: (warnings: BackendWarning[]) => void;
}

/** `holodeck chat -p`: load agent.yaml, run the agent once on the prompt, release everything. */
export async function runOneShot(
  agentFile: string,
  prompt: string,
  options: OneShotOptions = {},
): Promise<OneShotOutcome> {
  const agent = await loadAgent(agentFile, options.env ? { env: options.env } : {});
  const backend = selectBackend(agent);
  try {
    await backend.initialize();
    const warnings = [
      ...agent.warnings.map((warning) => ({ code: warning.code, message: warning.message })),
      ...backend.warnings,
    ];
    options.onWarnings?.(warnings);
    if (!options.resume) return { result: await backend.invokeOnce(prompt), warnings };
    const session = await backend.createSession({ resume: options.resume });
    try {
      return { result: await session.send(prompt), warnings };
    } finally {
      await session.close();
    }
  } finally {
    await backend.teardown();
  }
}

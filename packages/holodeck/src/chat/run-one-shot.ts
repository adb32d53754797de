import type {
  BackendWarning,
  ElicitationRecord,
  ExecutionResult,
  SessionEvent,
} from '../backends/contract/index.js';
import { selectBackend } from '../backends/select-backend.js';
import type { LoadedAgent } from '../config/index.js';
import { loadAgent } from '../load-agent.js';
import type { ChatRecording } from '../recording/chat-recording.js';
import { backendWarningOf } from './backend-warning-of.js';

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
  /** Stops the run (Ctrl+C): its process is ended and the call rejects with AgentSessionError. */
  signal?: AbortSignal;
  /** `--record`/`--replay`: the model traffic of this chat is recorded or replayed. */
  recording?: ChatRecording;
  /** Told of each Novarch hold while the run waits on it (chat -p prints it on stderr). */
  onHold?: (event: SessionEvent) => void;
  /** Told of each MCP elicitation request, declined (chat -p prints it on stderr). */
  onElicitation?: (record: ElicitationRecord) => void;
}

/** `holodeck chat -p`: load agent.yaml, run the agent once on the prompt, release everything. */
export async function runOneShot(
  agentFile: string,
  prompt: string,
  options: OneShotOptions = {},
): Promise<OneShotOutcome> {
  const loaded = await loadAgent(agentFile, options.env ? { env: options.env } : {});
  const { recording } = options;
  if (recording) return recording.run(() => oneShot(recording.agent(loaded), prompt, options, recording));
  return oneShot(loaded, prompt, options);
}

async function oneShot(
  agent: LoadedAgent,
  prompt: string,
  options: OneShotOptions,
  recording?: ChatRecording,
): Promise<OneShotOutcome> {
  const backend = selectBackend(agent, recording?.backendOptions() ?? {});
  try {
    await backend.initialize();
    const warnings = [...agent.warnings.map(backendWarningOf), ...backend.warnings];
    options.onWarnings?.(warnings);
    options.signal?.throwIfAborted();
    if (!options.resume) {
      const invoke = {
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.onHold ? { onHold: options.onHold } : {}),
        ...(options.onElicitation ? { onElicitation: options.onElicitation } : {}),
      };
      return { result: await backend.invokeOnce(prompt, undefined, invoke), warnings };
    }
    const session = await backend.createSession({ resume: options.resume });
    const stop = () => void session.close();
    options.signal?.addEventListener('abort', stop, { once: true });
    try {
      let result: ExecutionResult | undefined;
      for await (const event of session.sendStreaming(prompt)) {
        if (event.type === 'hold-pending' || event.type === 'hold-resolved') options.onHold?.(event);
        if (event.type === 'elicitation-resolved') options.onElicitation?.(event.elicitation);
        if (event.type === 'finish') result = event.result;
      }
      if (!result) throw new Error('the turn ended without a result');
      return { result, warnings };
    } finally {
      options.signal?.removeEventListener('abort', stop);
      await session.close();
    }
  } finally {
    await backend.teardown();
  }
}

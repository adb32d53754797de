import type { AgentConfig, LoadedAgent, Provider, StartupRuleResult } from '../config/index.js';
import { aiSdkProfile } from './ai-sdk/ai-sdk-profile.js';
import { claudeProfile } from './claude/claude-profile.js';
import type {
  AgentBackend,
  AgentSession,
  BackendOptions,
  BackendProfile,
  BackendWarning,
  ConversationMessage,
  CreateSessionOptions,
  ExecutionResult,
  InvokeOptions,
  OfferedTool,
  SessionTranscript,
} from './contract/index.js';

/**
 * A backend whose module is imported by its first call (`initialize()`, normally), not when it is
 * selected: the CLI bundle evaluates a backend's code, and with the Claude backend the 1.4 MB
 * Claude Agent SDK, only for the agents that run on it (bench/chat-vs-ai-sdk.mjs measures the
 * start-up). Every call goes to the backend as it is; until one was made there is nothing to
 * tear down and no warning.
 */
class BackendLoadedOnUse implements AgentBackend {
  private backend: AgentBackend | undefined;
  private loading: Promise<AgentBackend> | undefined;

  constructor(private readonly construct: () => Promise<AgentBackend>) {}

  get warnings(): readonly BackendWarning[] {
    return this.backend?.warnings ?? [];
  }

  private load(): Promise<AgentBackend> {
    // A failed import (a broken install) may be tried again, as a failed initialize() may.
    this.loading ??= this.construct().then(
      (backend) => {
        this.backend = backend;
        return backend;
      },
      (error: unknown) => {
        this.loading = undefined;
        throw error;
      },
    );
    return this.loading;
  }

  async initialize(): Promise<void> {
    return (await this.load()).initialize();
  }

  async invokeOnce(
    message: string,
    context?: readonly ConversationMessage[],
    options?: InvokeOptions,
  ): Promise<ExecutionResult> {
    return (await this.load()).invokeOnce(message, context, options);
  }

  async createSession(options?: CreateSessionOptions): Promise<AgentSession> {
    return (await this.load()).createSession(options);
  }

  async listTools(): Promise<OfferedTool[]> {
    return (await this.load()).listTools();
  }

  async readTranscript(sessionId: string): Promise<SessionTranscript> {
    return (await this.load()).readTranscript(sessionId);
  }

  async exportSession(sessionId: string, directory: string): Promise<boolean> {
    return (await this.load()).exportSession(sessionId, directory);
  }

  async importSession(sessionId: string, directory: string): Promise<boolean> {
    return (await this.load()).importSession(sessionId, directory);
  }

  async teardown(): Promise<void> {
    const backend = await this.loading?.catch(() => undefined);
    await backend?.teardown();
  }
}

/**
 * The one place a backend is constructed, and the only file outside a backend's folder that
 * imports from it (a test over the import graph enforces both). Anthropic agents run natively on
 * the Claude Agent SDK; every other provider (openai, azure_openai, ollama) on the AI SDK backend.
 * Only the selected backend's module is ever imported, on the first call; neither constructor
 * loads its model SDK: that happens in `initialize()`.
 */
export function selectBackend(agent: LoadedAgent, options: BackendOptions = {}): AgentBackend {
  return new BackendLoadedOnUse(
    agent.config.model.provider === 'anthropic'
      ? async () => new (await import('./claude/claude-backend.js')).ClaudeBackend(agent, options)
      : async () => new (await import('./ai-sdk/ai-sdk-backend.js')).AiSdkBackend(agent, options),
  );
}

/** The static facts of the backend that runs `provider` (startup rules, tool names, side effects). */
export function backendProfile(provider: Provider): BackendProfile {
  return provider === 'anthropic' ? claudeProfile : aiSdkProfile;
}

/** The startup rules of the agent's backend, for `loadAgentConfig`'s `checkBackendConfig`. */
export function checkBackendConfig(config: AgentConfig): Promise<StartupRuleResult> {
  return backendProfile(config.model.provider).checkConfig(config);
}

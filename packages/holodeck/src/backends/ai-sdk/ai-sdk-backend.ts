import path from 'node:path';
import { formatFieldPath, type LoadedAgent } from '../../config/index.js';
import { AgentSessionError, ConfigError, InternalError } from '../../errors.js';
import type {
  AgentBackend,
  AgentSession,
  BackendOptions,
  BackendWarning,
  ConversationMessage,
  CreateSessionOptions,
  ExecutionResult,
  InvokeOptions,
  OfferedTool,
  SessionTranscript,
} from '../contract/index.js';
import { copySessionFile } from '../copy-session-file.js';
import { declineReporting } from '../elicitation-broker.js';
import type { AiSdkRuntime, TurnOutcome } from './ai-sdk-runtime.js';
import { AiSdkSession } from './ai-sdk-session.js';
import { checkAiSdkConfig } from './check-ai-sdk-config.js';
import { describeOfferedTools } from './describe-offered-tools.js';
import { readSessionFile } from './read-session-file.js';
import { resolveProviderSettings } from './resolve-provider-settings.js';
import { SESSION_ID_PATTERN, type SessionFile, sessionFilePath } from './session-file-schema.js';
import { SessionLock } from './session-lock.js';
import { transcriptOfSession } from './transcript-of-session.js';

/** A run stopped by its caller, as on the Claude backend. */
function abortedError(signal: AbortSignal, partial?: ExecutionResult): AgentSessionError {
  const reason = signal.reason instanceof Error ? signal.reason.message : String(signal.reason ?? 'aborted');
  return new AgentSessionError(`the run was stopped: ${reason}`, {
    cause: signal.reason,
    phase: 'run',
    // What the run did until then (usage, cost, tool calls), as on the Claude backend.
    ...(partial ? { partial } : {}),
  });
}

/** Reads a run to its end and returns how it ended. */
async function drain(turn: AsyncGenerator<unknown, TurnOutcome>): Promise<TurnOutcome> {
  for (let next = await turn.next(); ; next = await turn.next()) {
    if (next.done) return next.value;
  }
}

/**
 * The backend of providers openai, azure_openai and ollama: the agent loop runs in-process on the
 * Vercel AI SDK, against each provider's OpenAI-compatible Chat Completions API. The AI SDK and
 * the MCP client are loaded by `initialize()`, never at import time (most agents run on Claude,
 * and the CLI's start-up is measured). There is no process to pre-warm: of BackendOptions only `modelTraffic` applies.
 */
export class AiSdkBackend implements AgentBackend {
  private runtime: AiSdkRuntime | undefined;
  private starting: Promise<void> | undefined;
  private readonly sessions = new Set<AgentSession>();
  private readonly collectedWarnings: BackendWarning[] = [];

  constructor(
    private readonly agent: LoadedAgent,
    private readonly options: BackendOptions = {},
  ) {}

  get warnings(): readonly BackendWarning[] {
    return this.collectedWarnings;
  }

  initialize(): Promise<void> {
    // Concurrent calls share one start; a failed start may be tried again.
    this.starting ??= this.start().catch((error: unknown) => {
      this.starting = undefined;
      throw error;
    });
    return this.starting;
  }

  private async start(): Promise<void> {
    const { agent } = this;
    this.collectedWarnings.length = 0;
    // The startup rules again, for library callers that skipped validation; then credentials,
    // then tool modules and MCP servers: nothing is started for an agent that cannot run.
    const checks = await checkAiSdkConfig(agent.config);
    if (checks.issues.length) {
      throw new ConfigError(
        checks.issues.map((issue) => ({
          file: agent.file,
          path: formatFieldPath(issue.path),
          message: issue.message,
          ...(issue.hint !== undefined ? { hint: issue.hint } : {}),
        })),
      );
    }
    // The loader reports the same warnings when it ran these rules: report each once.
    const known = new Set(agent.warnings.map((warning) => `${warning.code}\n${warning.message}`));
    this.collectedWarnings.push(
      ...checks.warnings
        .filter((warning) => !known.has(`${warning.code}\n${warning.message}`))
        .map((warning) => ({
          code: warning.code,
          message: warning.message,
          path: formatFieldPath(warning.path),
        })),
    );
    const settings = resolveProviderSettings(agent);
    const { startAiSdkRuntime } = await import('./start-ai-sdk-runtime.js');
    this.runtime = await startAiSdkRuntime(
      agent,
      settings,
      this.collectedWarnings,
      this.options.modelTraffic,
    );
  }

  async invokeOnce(
    message: string,
    context?: readonly ConversationMessage[],
    options: InvokeOptions = {},
  ): Promise<ExecutionResult> {
    const runtime = this.requireRuntime();
    const { signal } = options;
    if (signal?.aborted) throw abortedError(signal);
    // Prior messages go to the model as the real turns they were, not as a transcript.
    const history = (context ?? []).map((entry) => ({ role: entry.role, content: entry.content }));
    const governance = await runtime.openGovernance();
    const unwatch = options.onHold ? governance?.watchHolds(options.onHold) : undefined;
    const outcome = await drain(
      runtime.runTurn({
        history,
        message,
        ...(signal ? { signal } : {}),
        ...(governance ? { governance } : {}),
        ...(options.onElicitation ? { elicit: declineReporting(options.onElicitation) } : {}),
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
        ...(options.traffic ? { traffic: options.traffic } : {}),
      }),
    ).finally(() => unwatch?.());
    if (signal?.aborted) throw abortedError(signal, outcome.result);
    return outcome.result;
  }

  async createSession(options: CreateSessionOptions = {}): Promise<AgentSession> {
    const runtime = this.requireRuntime();
    const { saved, lock } = options.resume ? await this.openSaved(options.resume) : {};
    const governance = await runtime.openGovernance().catch(async (error: unknown) => {
      await lock?.release();
      throw error;
    });
    const session = new AiSdkSession({
      agent: this.agent,
      runtime,
      warnings: this.collectedWarnings,
      ...(saved ? { saved } : {}),
      ...(lock ? { lock } : {}),
      ...(governance ? { governance } : {}),
      ...(options.approvals ? { approvals: options.approvals } : {}),
      ...(options.elicitations ? { elicitations: options.elicitations } : {}),
      ...(options.traffic ? { traffic: options.traffic } : {}),
    });
    this.sessions.add(session);
    const close = session.close.bind(session);
    session.close = async () => {
      this.sessions.delete(session);
      await close();
    };
    return session;
  }

  /**
   * Reads a saved session and takes its lock, so no other chat writes it while this one has it
   * open: read first (an unknown or broken id says so, and creates nothing), then locked, then
   * read again, for the turns a chat that held it until now saved last.
   */
  private async openSaved(sessionId: string): Promise<{ saved: SessionFile; lock: SessionLock }> {
    await readSessionFile(this.agent.directory, sessionId);
    const lock = await SessionLock.acquire(this.agent.directory, sessionId);
    try {
      return { saved: await readSessionFile(this.agent.directory, sessionId), lock };
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  /** The tools the model is offered: known once `initialize()` loaded the modules and listed the MCP servers. */
  async listTools(): Promise<OfferedTool[]> {
    await this.initialize();
    return describeOfferedTools(this.requireRuntime().toolNames, this.agent.config);
  }

  async readTranscript(sessionId: string): Promise<SessionTranscript> {
    return transcriptOfSession(await readSessionFile(this.agent.directory, sessionId));
  }

  async exportSession(sessionId: string, directory: string): Promise<boolean> {
    return copySessionFile(
      sessionFilePath(this.agent.directory, checkedSessionId(sessionId)),
      path.join(directory, `${sessionId}.json`),
    );
  }

  async importSession(sessionId: string, directory: string): Promise<boolean> {
    // A live session of this machine holds the file's lock; serve imports only released ones.
    return copySessionFile(
      path.join(directory, `${checkedSessionId(sessionId)}.json`),
      sessionFilePath(this.agent.directory, sessionId),
    );
  }

  async teardown(): Promise<void> {
    await Promise.all([...this.sessions].map((session) => session.close()));
    this.sessions.clear();
    await this.starting?.catch(() => {});
    const runtime = this.runtime;
    this.runtime = undefined;
    this.starting = undefined;
    await runtime?.close();
  }

  private requireRuntime(): AiSdkRuntime {
    if (!this.runtime) throw new InternalError('AiSdkBackend.initialize() must be called first.');
    return this.runtime;
  }
}

/** The id, when it can be a session id (nothing in it climbs out of a folder). */
function checkedSessionId(sessionId: string): string {
  if (!SESSION_ID_PATTERN.test(sessionId)) throw new AgentSessionError(`"${sessionId}" is not a session id`);
  return sessionId;
}

import { availableParallelism, freemem } from 'node:os';
import type { LoadedAgent } from '../../config/index.js';
import { InternalError } from '../../errors.js';
import type { LoadedTools } from '../../tools/index.js';
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
import { modelPricing } from '../pricing/model-pricing.js';
import { toolKindsOf } from '../tool-kinds.js';
import { buildSdkOptions } from './build-sdk-options.js';
import { buildSubprocessEnv, credentialHint } from './build-subprocess-env.js';
import { checkResumable } from './check-resumable.js';
import { ClaudeSession } from './claude-session.js';
import { ConcurrencyLimit } from './concurrency-limit.js';
import { mcpServerPlaces } from './describe-mcp-failure.js';
import type { GovernedRun } from './governance/prepare-governance.js';
import { mapObservabilityEnv } from './map-observability-env.js';
import { prepareFunctionTools } from './prepare-function-tools.js';
import type { PreparedAgent } from './prepared-agent.js';
import { ProcessSlots } from './process-slots.js';
import { resolveClaudeBinary } from './resolve-claude-binary.js';
import { runOnce } from './run-once.js';
import { processBound } from './spare-policy.js';
import { WarmProcessPool } from './warm-process-pool.js';
import { withSpawnRetry } from './with-spawn-retry.js';

/** Options of the Claude backend beyond agent.yaml: the contract's hints (BackendOptions). */
export type ClaudeBackendOptions = BackendOptions;

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/**
 * The Claude-native backend: every agent run is a Claude Code CLI process driven through the
 * Claude Agent SDK. `invokeOnce` starts a fresh process per call; `createSession` keeps one
 * process for a whole conversation.
 */
export class ClaudeBackend implements AgentBackend {
  private prepared: PreparedAgent | undefined;
  private functionTools: LoadedTools | undefined;
  private readonly sessions = new Set<AgentSession>();
  private readonly collectedWarnings: BackendWarning[] = [];

  private pool: WarmProcessPool | undefined;
  /**
   * Every CLI process of this backend holds a slot from spawn to exit: runs, spares, sessions.
   * The bound is `maxProcesses`, else (when pre-warming) the runs at a time plus the few spares
   * free memory allows; without either, unbounded (a chat has one process).
   */
  private readonly slots: ProcessSlots;
  /**
   * CLI start-ups for spares and sessions, at most one per CPU at a time. A start-up is CPU-bound
   * and multi-threaded: on 2 cores, 8 at once cost ~25% more CPU per process than 2 batches of 4
   * and are all ready later, while fewer at once let the first runs begin sooner
   * (bench/README.md, test-runner.mjs). A run that starts cold (`invokeOnce` without a spare)
   * takes its turn too, until its process is up.
   */
  private readonly startups = new ConcurrencyLimit(availableParallelism());

  constructor(
    private readonly agent: LoadedAgent,
    private readonly backendOptions: ClaudeBackendOptions = {},
  ) {
    const { prewarm, maxProcesses } = backendOptions;
    const limit =
      maxProcesses ??
      (prewarm
        ? processBound({ concurrency: prewarm.concurrency, freeMemoryBytes: freemem() })
        : Number.POSITIVE_INFINITY);
    this.slots = new ProcessSlots(limit, () => this.pool?.evictOne());
  }

  get warnings(): readonly BackendWarning[] {
    return this.collectedWarnings;
  }

  async initialize(): Promise<void> {
    if (this.prepared) return;
    const { config } = this.agent;
    const authProvider = config.model.auth_provider ?? 'api_key';
    const permissionMode = config.claude?.permission_mode ?? 'manual';
    const telemetry = mapObservabilityEnv(config.observability);
    // Ignored telemetry fields and model.temperature are warned of by the startup rules (validate too).
    // Order matters for the user: credentials, then the runtime, then tool modules.
    const env = buildSubprocessEnv({
      env: this.agent.env,
      authProvider,
      extra: telemetry.env,
      bypassPermissionsAsRoot: permissionMode === 'acceptAll' && isRoot(),
      ...(config.model.max_tokens !== undefined ? { maxOutputTokens: config.model.max_tokens } : {}),
    });
    const claudeBinary = resolveClaudeBinary({ env: this.agent.env });
    const plan = buildSdkOptions({ agent: this.agent, env, claudeBinary });
    this.collectedWarnings.push(...plan.warnings);
    const functionToolConfigs = (config.tools ?? []).flatMap((tool, index) =>
      tool.type === 'function' && plan.functionToolNames.includes(tool.name) ? [{ index, config: tool }] : [],
    );
    // Novarch (native SQLite, CEL) is loaded only for agents with a governance block.
    const governance = config.governance
      ? await (await import('./governance/prepare-governance.js')).prepareGovernance(this.agent)
      : undefined;
    // Retrieval tools (`<name>_search`) that allowed_tools lets through join the function tools in
    // the in-process MCP server; their indexes are brought up to date here, before any CLI starts.
    const retrievalNames = (config.tools ?? []).flatMap((tool) =>
      (tool.type === 'vectorstore' || tool.type === 'hierarchical_document') &&
      plan.functionToolNames.includes(`${tool.name}_search`)
        ? [tool.name]
        : [],
    );
    const retrievalTools = retrievalNames.length
      ? await (await import('../../tools/index.js')).loadRetrievalTools(this.agent, {
          only: retrievalNames,
          onWarning: (warning) => this.collectedWarnings.push(warning),
          ...(this.backendOptions.modelTraffic
            ? { force: true, embeddings: { fetch: this.backendOptions.modelTraffic.embeddingsFetch } }
            : {}),
        })
      : undefined;
    const functionTools =
      functionToolConfigs.length || retrievalTools
        ? await prepareFunctionTools(this.agent, functionToolConfigs, retrievalTools)
        : undefined;
    this.functionTools = functionTools?.loaded;
    const traffic = this.backendOptions.modelTraffic;
    const pricing = modelPricing(this.agent.config);
    this.prepared = {
      plan,
      credentialHint: credentialHint(authProvider),
      toolKindOf: toolKindsOf(this.agent.config),
      mcpServers: mcpServerPlaces(this.agent, this.agent.env ?? process.env),
      ...(pricing.kind === 'prices' ? { prices: pricing.prices } : {}),
      ...(governance ? { governance } : {}),
      ...(this.backendOptions.modelTraffic ? { routeFor: this.backendOptions.modelTraffic.routeFor } : {}),
      ...(functionTools ? { createFunctionToolsServer: functionTools.createServer(traffic) } : {}),
      ...(this.agent.responseFormat
        ? {
            validateStructuredOutput: (await import('../../json-schema/create-ajv.js')).compileUserSchema(
              this.agent.responseFormat,
            ),
          }
        : {}),
    };
  }

  async invokeOnce(
    message: string,
    context?: readonly ConversationMessage[],
    options: InvokeOptions = {},
  ): Promise<ExecutionResult> {
    const prepared = this.requirePrepared();
    const prewarm = this.backendOptions.prewarm;
    // Governed runs start cold (a spare's hooks are fixed at its start-up): no spares for them.
    if (prewarm && prewarm.runs > 0 && !prepared.governance && !this.pool) {
      this.pool = new WarmProcessPool(prepared, {
        runs: prewarm.runs,
        slots: this.slots,
        startups: this.startups,
      });
    }
    return runOnce(prepared, message, context, options, {
      slots: this.slots,
      startups: this.startups,
      ...(this.pool ? { pool: this.pool } : {}),
    });
  }

  async createSession(options: CreateSessionOptions = {}): Promise<AgentSession> {
    const prepared = this.requirePrepared();
    if (options.resume) await checkResumable(options.resume, prepared.plan.options.env ?? {});
    // One Novarch session for the chat, opened once: a spawn retry goes on in it rather than
    // leaving a session behind per attempt. It is closed with the chat, or here when none started.
    const governed = await prepared.governance?.openRun();
    try {
      const session = await withSpawnRetry(() => this.startSession(prepared, options, governed));
      this.sessions.add(session);
      return session;
    } catch (error) {
      await governed?.close();
      throw error;
    }
  }

  /** One attempt at a session: a process slot, a CLI process that accepted its configuration. */
  private async startSession(
    prepared: PreparedAgent,
    options: CreateSessionOptions,
    governed: GovernedRun | undefined,
  ): Promise<ClaudeSession> {
    const release = await this.slots.acquire();
    try {
      return await this.startups.run(async () => {
        const candidate = new ClaudeSession(prepared, this.collectedWarnings, options, governed);
        try {
          await candidate.ready();
        } catch (error) {
          await candidate.close();
          throw error;
        }
        // The slot is the process's: freed once close() has seen it exit; then the gate closes.
        candidate.afterClose(async () => {
          this.sessions.delete(candidate);
          release();
          await governed?.close();
        });
        return candidate;
      });
    } catch (error) {
      release();
      throw error;
    }
  }

  async listTools(): Promise<OfferedTool[]> {
    const prepared = this.requirePrepared();
    const { listOfferedTools } = await import('./list-offered-tools.js');
    const release = await this.slots.acquire();
    try {
      return await this.startups.run(() => listOfferedTools(prepared));
    } finally {
      release();
    }
  }

  async readTranscript(sessionId: string): Promise<SessionTranscript> {
    // The CLI's env is built from agent.env (build-subprocess-env.ts): its HOME and CLAUDE_CONFIG_DIR.
    const { readClaudeTranscript } = await import('./read-claude-transcript.js');
    return readClaudeTranscript(sessionId, this.agent.env);
  }

  async exportSession(sessionId: string, directory: string): Promise<boolean> {
    const { exportClaudeSession } = await import('./carry-claude-session.js');
    return exportClaudeSession(sessionId, directory, this.cliEnv());
  }

  async importSession(sessionId: string, directory: string): Promise<boolean> {
    const { importClaudeSession } = await import('./carry-claude-session.js');
    const options = this.requirePrepared().plan.options;
    return importClaudeSession(sessionId, directory, this.cliEnv(), options.cwd ?? this.agent.directory);
  }

  /** The CLI's environment (its HOME and CLAUDE_CONFIG_DIR say where its sessions are). */
  private cliEnv(): Readonly<Record<string, string | undefined>> {
    return this.prepared?.plan.options.env ?? this.agent.env;
  }

  async teardown(): Promise<void> {
    await this.pool?.close();
    this.pool = undefined;
    // Sessions first: their gates settle evidence into the store, which closes after them.
    await Promise.all([...this.sessions].map((session) => session.close()));
    this.sessions.clear();
    await this.prepared?.governance?.close();
    const tools = this.functionTools;
    this.functionTools = undefined;
    await tools?.close();
  }

  private requirePrepared(): PreparedAgent {
    if (!this.prepared) throw new InternalError('ClaudeBackend.initialize() must be called first.');
    return this.prepared;
  }
}

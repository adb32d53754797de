import { jsonSchema, type LanguageModel, Output } from 'ai';
import type { LoadedAgent } from '../../config/index.js';
import { modelRequestTimeoutMs } from '../../config/model-request-timeout.js';
import type { LoadedTools, RunTraffic } from '../../tools/index.js';
import type { BackendWarning, ModelTraffic } from '../contract/index.js';
import { modelPricing } from '../pricing/model-pricing.js';
import { toolKindsOf } from '../tool-kinds.js';
import type { AiSdkRuntime } from './ai-sdk-runtime.js';
import { buildCallSettings } from './build-call-settings.js';
import { createLanguageModel } from './create-language-model.js';
import { createTimedFetch } from './create-timed-fetch.js';
import { describeCallWarning } from './describe-call-warning.js';
import type { ProviderSettings } from './resolve-provider-settings.js';
import { runTurn, type TurnPlan } from './run-turn.js';
import { toAiSdkTools } from './to-ai-sdk-tools.js';
import { toolApproval } from './tool-approval-policy.js';

/**
 * Loads the function tool modules and starts the MCP servers; on a failure, closes what started.
 * Each kind's code is imported only for an agent that has such tools: the tool loaders (ajv), the
 * MCP client and the retrieval modules cost start-up time an agent without them should not pay.
 */
async function loadTools(
  agent: LoadedAgent,
  warnings?: BackendWarning[],
  embeddingsFetch?: typeof fetch,
): Promise<LoadedTools[]> {
  const tools = agent.config.tools ?? [];
  const functionEntries = tools.flatMap((tool, index) =>
    tool.type === 'function' ? [{ index, config: tool }] : [],
  );
  const mcpEntries = tools.flatMap((tool, index) => (tool.type === 'mcp' ? [{ index, config: tool }] : []));
  const loaded: LoadedTools[] = [];
  try {
    if (functionEntries.length) {
      const { loadFunctionTools } = await import('../../tools/index.js');
      loaded.push(await loadFunctionTools(agent.file, functionEntries));
    }
    if (mcpEntries.length) {
      const { connectMcpServers } = await import('./connect-mcp-servers.js');
      loaded.push(await connectMcpServers(mcpEntries, agent.env));
    }
    if (tools.some((tool) => tool.type === 'vectorstore' || tool.type === 'hierarchical_document')) {
      const { loadRetrievalTools } = await import('../../tools/index.js');
      loaded.push(
        await loadRetrievalTools(agent, {
          onWarning: (warning) => warnings?.push(warning),
          ...(embeddingsFetch ? { force: true, embeddings: { fetch: embeddingsFetch } } : {}),
        }),
      );
    }
  } catch (error) {
    await Promise.all(loaded.map((source) => source.close().catch(() => {})));
    throw error;
  }
  return loaded;
}

/** Appends a warning unless the same one is already there. */
function addOnce(warnings: BackendWarning[], warning: BackendWarning): void {
  if (!warnings.some((known) => known.code === warning.code && known.message === warning.message)) {
    warnings.push(warning);
  }
}

/**
 * Starts everything runs of this agent share: the provider's Chat Completions model (with a
 * per-request deadline), the function tools and MCP servers as AI SDK tools, and the compiled
 * response_format. Imported on demand by AiSdkBackend, so agents on the Claude backend never
 * load the AI SDK or the MCP client. The provider's warnings about calls go to `warnings`.
 */
export async function startAiSdkRuntime(
  agent: LoadedAgent,
  settings: ProviderSettings,
  warnings: BackendWarning[],
  traffic?: ModelTraffic,
): Promise<AiSdkRuntime> {
  // The SDK prints call warnings with console.info/warn, which would mix into `holodeck chat
  // --json` on stdout; they are reported as backend warnings instead. A logger the embedding
  // program set itself is left alone.
  if (globalThis.AI_SDK_LOG_WARNINGS === undefined) globalThis.AI_SDK_LOG_WARNINGS = false;
  // The code this agent needs, before anything is opened or started: the configured provider
  // only, and ajv only for a response_format (function tools compile theirs in their loader).
  const timeoutMs = modelRequestTimeoutMs(agent.env);
  const model = await createLanguageModel(settings, createTimedFetch(timeoutMs, traffic?.fetch));
  // A recorded run's requests go through its own fetch: they are its case's and attempt's.
  const runModels = new WeakMap<RunTraffic, Promise<LanguageModel>>();
  const modelFor = (run: RunTraffic) => {
    let runModel = runModels.get(run);
    if (!runModel) {
      runModel = createLanguageModel(settings, createTimedFetch(timeoutMs, run.fetch));
      runModels.set(run, runModel);
    }
    return runModel;
  };
  const responseFormat = agent.responseFormat;
  const structuredOutput = responseFormat
    ? {
        output: Output.object({ schema: jsonSchema(responseFormat) }),
        validateStructuredOutput: (await import('../../json-schema/create-ajv.js')).compileUserSchema(
          responseFormat,
        ),
      }
    : {};
  // Novarch first (rules and config errors stop the agent before any server starts); it is
  // loaded only for agents with a governance block (native SQLite, CEL).
  const governance = agent.config.governance
    ? await (await import('./open-run-governance.js')).openAiSdkGovernance(agent)
    : undefined;
  let sources: LoadedTools[];
  try {
    sources = await loadTools(agent, warnings, traffic?.embeddingsFetch);
  } catch (error) {
    await governance?.close();
    throw error;
  }
  const loadedTools = sources.flatMap((source) => source.tools);
  const tools = traffic ? traffic.wrapTools(loadedTools) : loadedTools;
  const ungoverned = toAiSdkTools(tools);
  const plan: TurnPlan = {
    model,
    modelFor,
    system: agent.instructions,
    tools: (run, elicit, runTraffic) =>
      run || elicit || runTraffic ? toAiSdkTools(tools, run, elicit, runTraffic) : ungoverned,
    call: buildCallSettings(agent.config),
    approvalOf: (name) => toolApproval(agent.config, name),
    ...structuredOutput,
    errorContext: { credentialHint: settings.credentialHint, secrets: settings.secrets },
    pricing: modelPricing(agent.config),
    onCallWarning: (warning) => addOnce(warnings, describeCallWarning(warning, agent.config.model.name)),
    toolKindOf: toolKindsOf(agent.config),
  };
  let closing: Promise<void> | undefined;
  return {
    model: agent.config.model.name,
    toolNames: tools.map((tool) => tool.name),
    openGovernance: async () => governance?.openRun(),
    runTurn: (input) => runTurn(plan, input),
    close: () => {
      closing ??= Promise.all(sources.map((source) => source.close()))
        .then(() => governance?.close())
        .then(() => {});
      return closing;
    },
  };
}

import type { AgentConfig, LoadedAgent } from '../../config/index.js';
import type { AgentToolNames, BackendProfile, BackendWarning } from '../contract/index.js';
import { modelPricing } from '../pricing/model-pricing.js';
import { missingApiKeyVariable } from './api-key-source.js';
import { checkAiSdkConfig } from './check-ai-sdk-config.js';

/** Function tools by their short name (as the model sees them); MCP servers, whose tools are known at runtime. */
function aiSdkToolNames(config: AgentConfig): AgentToolNames {
  const names = new Set<string>();
  const mcpServers: string[] = [];
  for (const tool of config.tools ?? []) {
    if (tool.type === 'function') names.add(tool.name);
    else if (tool.type === 'mcp') mcpServers.push(tool.name);
    else names.add(`${tool.name}_search`);
  }
  return { names, mcpServers };
}

/** For `holodeck validate`: the API key variable a run would need but this environment lacks. */
function aiSdkCredentialWarnings(agent: LoadedAgent): BackendWarning[] {
  const { model } = agent.config;
  const missing = missingApiKeyVariable(model, agent.env);
  if (!missing) return [];
  return [
    {
      code: 'credentials-missing',
      message: `provider ${model.provider} needs ${missing} (or model.api_key), which is not set here: \`holodeck chat\` will stop until it is.`,
    },
  ];
}

/**
 * What the rest of HoloDeck knows of the AI SDK backend (providers openai, azure_openai, ollama)
 * without starting it. Nothing here loads the AI SDK.
 */
export const aiSdkProfile: BackendProfile = {
  name: 'ai-sdk',
  // A session reset drops the history and takes a new id; a fresh session per case costs nothing more.
  isolationLevels: ['process', 'session'],
  checkConfig: checkAiSdkConfig,
  // Chat Completions reports tokens, not prices: the cost is theirs at the model's prices.
  unknownCostReason: (config) => {
    const pricing = modelPricing(config);
    return pricing.kind === 'unknown' ? pricing.reason : undefined;
  },
  credentialWarnings: aiSdkCredentialWarnings,
  toolNames: aiSdkToolNames,
  // No built-in tools: function tools and MCP servers are the user's own code, and the backend
  // works in no folder of its own.
  sideEffects: (agent) => ({
    capabilities: [],
    withoutSideEffects: () => agent,
    workingDirectory: agent.directory,
  }),
};

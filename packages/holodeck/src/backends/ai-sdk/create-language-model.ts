import type { LanguageModel } from 'ai';
import type { ProviderSettings } from './resolve-provider-settings.js';

/**
 * The Chat Completions model of the agent's provider. Every setting is passed explicitly, so the
 * providers never fall back to process.env (OPENAI_BASE_URL, OPENAI_API_KEY, AZURE_API_KEY).
 * Only the agent's provider package is imported: each costs start-up time (@ai-sdk/azure also
 * loads @ai-sdk/openai and @ai-sdk/deepseek), and an agent runs on one.
 */
export async function createLanguageModel(
  settings: ProviderSettings,
  fetch: typeof globalThis.fetch,
): Promise<LanguageModel> {
  switch (settings.provider) {
    case 'openai': {
      const { createOpenAI } = await import('@ai-sdk/openai');
      return createOpenAI({
        baseURL: settings.baseURL,
        apiKey: settings.apiKey,
        ...(settings.organization ? { organization: settings.organization } : {}),
        fetch,
      }).chat(settings.modelId);
    }
    case 'azure_openai': {
      const { createAzure } = await import('@ai-sdk/azure');
      return createAzure({
        baseURL: settings.baseURL,
        apiKey: settings.apiKey,
        apiVersion: settings.apiVersion,
        useDeploymentBasedUrls: true,
        fetch,
      }).chat(settings.deployment);
    }
    case 'ollama': {
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      return createOpenAICompatible({
        name: 'ollama',
        baseURL: settings.baseURL,
        ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
        // Ollama reports usage in streams only when asked, and follows a json_schema response_format.
        includeUsage: true,
        supportsStructuredOutputs: true,
        fetch,
      }).chatModel(settings.modelId);
    }
  }
}

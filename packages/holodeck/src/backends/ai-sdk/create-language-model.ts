import { createAzure } from '@ai-sdk/azure';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import type { ProviderSettings } from './resolve-provider-settings.js';

/**
 * The Chat Completions model of the agent's provider. Every setting is passed explicitly, so the
 * providers never fall back to process.env (OPENAI_BASE_URL, OPENAI_API_KEY, AZURE_API_KEY).
 */
export function createLanguageModel(
  settings: ProviderSettings,
  fetch: typeof globalThis.fetch,
): LanguageModel {
  switch (settings.provider) {
    case 'openai':
      return createOpenAI({
        baseURL: settings.baseURL,
        apiKey: settings.apiKey,
        ...(settings.organization ? { organization: settings.organization } : {}),
        fetch,
      }).chat(settings.modelId);
    case 'azure_openai':
      return createAzure({
        baseURL: settings.baseURL,
        apiKey: settings.apiKey,
        apiVersion: settings.apiVersion,
        useDeploymentBasedUrls: true,
        fetch,
      }).chat(settings.deployment);
    case 'ollama':
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

// Defaults other packages share without loading the client (no ajv, no zod): HoloDeck's AI SDK
// backend reads the Azure OpenAI version from here, so the version is set in one place.
// Published as `judge-client/provider-defaults`; the package index exports the same constant.

/**
 * Default `api-version` of azure_openai deployment URLs when none is configured: the latest GA
 * version of the data-plane inference API (deployment URLs need a dated version, not `v1`).
 */
export const DEFAULT_AZURE_API_VERSION = '2024-10-21';

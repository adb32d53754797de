import type { Provider } from '../../config/index.js';

/** A YAML block of agent.yaml and the .env.example lines it needs, for one provider. */
export interface ProviderSection {
  /** `model:` and what runs the agent loop (`max_turns`, `claude:`), with comments. */
  model: string;
  /** Lines of .env.example: the key and endpoint variables this provider reads. */
  env: string[];
}

/** The model block of every template, per provider: the settings people most often need. */
export function modelSection(provider: Provider, maxTurns: number): ProviderSection {
  const turns = `max_turns: ${maxTurns} # most model steps one run may take (on every provider)`;
  switch (provider) {
    case 'anthropic':
      return {
        model: `model:
  provider: anthropic # runs natively on the Claude Agent SDK (the Claude Code CLI owns the agent loop)
  name: claude-sonnet-4-6
  max_tokens: 2048 # cap on tokens per model reply
  # The key is read from ANTHROPIC_API_KEY (environment, .env in this folder, or ~/.holodeck/.env).

${turns}

claude:
  # Least privilege: no built-in tools (files, shell, web), no thinking budget, no Claude settings
  # files. The agent can only call the tools listed under tools:.
  permission_mode: manual`,
        env: ['# The Claude API key (https://console.anthropic.com/settings/keys).', 'ANTHROPIC_API_KEY='],
      };
    case 'openai':
      return {
        model: `model:
  provider: openai # runs in-process on the Vercel AI SDK, over the Chat Completions API
  name: gpt-4o-mini
  temperature: 0
  max_tokens: 1024
  # The key is read from OPENAI_API_KEY; OPENAI_BASE_URL, when set, points the agent at another
  # OpenAI-compatible server (vLLM, LiteLLM, a proxy). endpoint: here would win over it.

${turns}`,
        env: [
          '# The OpenAI API key (https://platform.openai.com/api-keys).',
          'OPENAI_API_KEY=',
          '# Another OpenAI-compatible server instead of api.openai.com (optional).',
          '# OPENAI_BASE_URL=https://api.openai.com/v1',
        ],
      };
    case 'azure_openai':
      return {
        model: `model:
  provider: azure_openai # runs in-process on the Vercel AI SDK, over your Azure OpenAI resource
  name: gpt-4o-mini
  # Your resource and deployment: set AZURE_OPENAI_ENDPOINT and AZURE_OPENAI_DEPLOYMENT in .env
  # (the defaults after :- are placeholders, not a working resource).
  endpoint: "\${AZURE_OPENAI_ENDPOINT:-https://your-resource.openai.azure.com}"
  deployment: "\${AZURE_OPENAI_DEPLOYMENT:-gpt-4o-mini}"
  # api_version: 2024-10-21 # a dated API version; the default is HoloDeck's tested one
  temperature: 0
  max_tokens: 1024
  # The key is read from AZURE_OPENAI_API_KEY.

${turns}`,
        env: [
          '# Your Azure OpenAI resource: Keys and Endpoint in the Azure portal.',
          'AZURE_OPENAI_API_KEY=',
          'AZURE_OPENAI_ENDPOINT=https://your-resource.openai.azure.com',
          '# The name of your model deployment.',
          'AZURE_OPENAI_DEPLOYMENT=gpt-4o-mini',
        ],
      };
    case 'ollama':
      return {
        model: `model:
  provider: ollama # a local model through Ollama's OpenAI-compatible API (no key needed)
  name: llama3.2 # ollama pull llama3.2; pick a model that supports tool calls
  endpoint: "\${OLLAMA_ENDPOINT:-http://localhost:11434}"
  temperature: 0

${turns}`,
        env: [
          '# Where Ollama listens (default http://localhost:11434).',
          '# OLLAMA_ENDPOINT=http://localhost:11434',
        ],
      };
  }
}

import type { Provider } from '../../config/index.js';
import type { InitTemplate } from '../init-template.js';
import { conversationalAgentYaml, conversationalFiles } from './conversational-template.js';

const NOTES: Record<Exclude<Provider, 'anthropic'>, { summary: string; heading: string }> = {
  openai: {
    summary: 'the conversational agent on OpenAI (or any OpenAI-compatible server)',
    heading:
      '# A HoloDeck agent on OpenAI, written by holodeck init. Set OPENAI_API_KEY in .env, then:\n#   holodeck validate agent.yaml\n#   holodeck chat agent.yaml\n#   holodeck test agent.yaml\n# Costs come from the HoloDeck price table of OpenAI models; set for a model it lacks.',
  },
  azure_openai: {
    summary: 'the conversational agent on an Azure OpenAI deployment',
    heading:
      '# A HoloDeck agent on Azure OpenAI, written by holodeck init. Set AZURE_OPENAI_API_KEY,\n# AZURE_OPENAI_ENDPOINT and AZURE_OPENAI_DEPLOYMENT in .env, then:\n#   holodeck validate agent.yaml\n#   holodeck chat agent.yaml\n#   holodeck test agent.yaml',
  },
  ollama: {
    summary: 'the conversational agent on a local Ollama model (no key)',
    heading:
      '# A HoloDeck agent on a local Ollama model, written by holodeck init. Start Ollama and pull\n# the model (ollama pull llama3.2), then:\n#   holodeck validate agent.yaml\n#   holodeck chat agent.yaml\n#   holodeck test agent.yaml',
  },
};

function providerTemplate(provider: Exclude<Provider, 'anthropic'>): InitTemplate {
  const note = NOTES[provider];
  return {
    name: provider,
    summary: note.summary,
    defaultProvider: provider,
    fixedProvider: provider,
    render: (options) => [
      { path: 'agent.yaml', content: conversationalAgentYaml(options, note.heading) },
      ...conversationalFiles(),
    ],
  };
}

/** One template per non-Anthropic provider: the conversational agent with that provider's settings. */
export const providerTemplates: InitTemplate[] = [
  providerTemplate('openai'),
  providerTemplate('azure_openai'),
  providerTemplate('ollama'),
];

import type { LLMProvider, Provider } from '../../config/index.js';
import type { InitTemplate, TemplateOptions } from '../init-template.js';
import { modelSection } from './model-section.js';

const INSTRUCTIONS = `You answer questions from the documents in the docs/ folder.

- Search with docs_search before you answer, and answer only from what it returns.
- Cite the file and the section you used, e.g. (getting-started.md, Installation).
- When the documents do not say, answer that you could not find it in the documentation.
`;

const GETTING_STARTED = `# Getting started

## Installation

Install the desktop app from the downloads page, then sign in with your work e-mail address.
The first start imports your settings from the previous version.

## Resetting your password

Open Settings, choose Security, then Reset password. The link in the e-mail is valid for
30 minutes.
`;

const FAQ = `# Frequently asked questions

## Which systems are supported?

Windows 11, macOS 14 or later, and Ubuntu 22.04 or later.

## How do I export my data?

Open Settings, choose Privacy, then Export. The export arrives as a ZIP file within 24 hours.
`;

/** The embeddings the retrieval tool uses, per agent provider (Anthropic has no embeddings API). */
function embeddingSection(provider: Provider): { yaml: string; env: string[] } {
  const embeddings: Record<
    Provider,
    { model: Pick<LLMProvider, 'provider' | 'name'>; extra: string; env: string[] }
  > = {
    anthropic: {
      model: { provider: 'openai', name: 'text-embedding-3-small' },
      extra:
        '  # Anthropic has no embeddings API: the key is read from OPENAI_API_KEY, the endpoint from\n  # OPENAI_BASE_URL when set.\n',
      env: ['# Embeddings for the docs search (OpenAI; Anthropic has no embeddings API).', 'OPENAI_API_KEY='],
    },
    openai: {
      model: { provider: 'openai', name: 'text-embedding-3-small' },
      extra: '  # The same key as the model (OPENAI_API_KEY).\n',
      env: [],
    },
    azure_openai: {
      model: { provider: 'azure_openai', name: 'text-embedding-3-small' },
      extra: `  endpoint: "\${AZURE_OPENAI_ENDPOINT:-https://your-resource.openai.azure.com}"\n  deployment: "\${AZURE_OPENAI_EMBEDDING_DEPLOYMENT:-text-embedding-3-small}"\n`,
      env: [
        '# The deployment of your embeddings model.',
        'AZURE_OPENAI_EMBEDDING_DEPLOYMENT=text-embedding-3-small',
      ],
    },
    ollama: {
      model: { provider: 'ollama', name: 'nomic-embed-text' },
      extra: `  endpoint: "\${OLLAMA_ENDPOINT:-http://localhost:11434}" # ollama pull nomic-embed-text\n`,
      env: [],
    },
  };
  const chosen = embeddings[provider];
  return {
    yaml: `embedding_provider:\n  provider: ${chosen.model.provider}\n  name: ${chosen.model.name}\n${chosen.extra}`,
    env: chosen.env,
  };
}

function agentYaml(options: TemplateOptions): string {
  const section = modelSection(options.provider, 6);
  return `# A documentation assistant: answers from the files in docs/ through a retrieval tool, written
# by holodeck init. Put your own Markdown, HTML, PDF or DOCX files in docs/, then:
#   holodeck ingest agent.yaml     # build the index (chat and test refresh it too)
#   holodeck chat agent.yaml
#   holodeck test agent.yaml
name: ${options.name} # letters, digits, hyphens; starts with a letter
description: Answers questions from the documents in docs/.

${section.model}

# The retrieval tool embeds its chunks and the questions with this model. The index remembers
# the model it was built with: changing it re-embeds everything (and says so).
${embeddingSection(options.provider).yaml}
instructions:
  file: instructions.md

tools:
  # Documents, chunked along their headings: every result cites its file and heading path.
  # Indexed into .holodeck/index/ next to this file; only new or changed files are re-embedded.
  # The model calls it as docs_search.
  - type: hierarchical_document
    name: docs
    description: The product documentation (installation, passwords, supported systems, exports).
    source: ./docs
    search_mode: hybrid # semantic (cosine) and keyword (BM25) results fused by rank
    top_k: 3

# ---------------------------------------------------------------------------------------------
# Tests: holodeck test agent.yaml   (then: holodeck test view)
# RAG metrics such as faithfulness grade each answer against the passages docs_search returned
# in that run; they ask a judge model (evaluations.model, default the agent's model).
# ---------------------------------------------------------------------------------------------
evaluations:
  metrics:
    - type: latency
      threshold: 60000
    - type: turns
      threshold: 4

test_cases:
  - name: reset-password
    input: How do I reset my password?
    ground_truth: Open Settings, choose Security, then Reset password; the link is valid for 30 minutes.
    expected_tools: [docs_search]
    metrics:
      - type: icontains
        value: security
      - type: contains
        value: 30 minutes
      # - type: faithfulness # judged: every claim must be supported by the retrieved passages
      #   threshold: 0.9

  - name: supported-systems
    input: Does it run on macOS 13?
    expected_tools: [docs_search]
    metrics:
      - type: contains
        value: macOS 14

  - name: not-documented
    input: Can I pay with a gift card?
    expected_tools: [docs_search]
    metrics:
      - type: icontains-any
        value: [could not find, not in the documentation, does not say]
`;
}

export const docsAssistantTemplate: InitTemplate = {
  name: 'docs-assistant',
  summary: 'answers from a folder of documents through a retrieval tool (docs/, embeddings, citations)',
  defaultProvider: 'anthropic',
  render: (options) => [
    { path: 'agent.yaml', content: agentYaml(options) },
    { path: 'instructions.md', content: INSTRUCTIONS },
    { path: 'docs/getting-started.md', content: GETTING_STARTED },
    { path: 'docs/faq.md', content: FAQ },
  ],
  extraEnv: (provider) => embeddingSection(provider).env,
};

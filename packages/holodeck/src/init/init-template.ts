import type { Provider } from '../config/index.js';

/** One file a template writes, relative to the agent folder. */
export interface TemplateFile {
  /** Path inside the agent folder, with `/` separators. */
  path: string;
  content: string;
}

/** What the user chose: the agent's name and its model provider. */
export interface TemplateOptions {
  /** The agent's `name:` (letters, digits, hyphens; starts with a letter). */
  name: string;
  provider: Provider;
}

/** A starting point `holodeck init` can write. */
export interface InitTemplate {
  /** The `--template` value. */
  name: string;
  /** One line for `holodeck init --list` and the prompt. */
  summary: string;
  /** The provider used when none is chosen. */
  defaultProvider: Provider;
  /** Set for a provider's own template: `--provider` may not name another one. */
  fixedProvider?: Provider;
  /** Every file of the agent folder but the shared ones (schema, .gitignore). */
  render(options: TemplateOptions): TemplateFile[];
  /** Lines .env.example adds to the provider's own (e.g. an embeddings key). */
  extraEnv?(provider: Provider): string[];
}

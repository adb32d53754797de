import path from 'node:path';
import type { AgentConfig } from './schema/agent-config-schema.js';
import { type LLMProvider, OLLAMA_DEFAULT_ENDPOINT } from './schema/llm-provider-schema.js';
import type { ToolConfig } from './schema/tool-config-schema.js';

/**
 * Applies the defaults zod cannot express (they depend on another field) and makes every path
 * absolute against agent.yaml's folder, so later layers never care where the process was started.
 */
export function resolveAgentConfig(config: AgentConfig, directory: string): AgentConfig {
  const resolve = (file: string): string => path.resolve(directory, file);
  const { instructions, response_format: responseFormat, claude, test_cases_file: testCasesFile } = config;
  return {
    ...config,
    model: withProviderDefaults(config.model),
    ...(config.embedding_provider
      ? { embedding_provider: withProviderDefaults(config.embedding_provider) }
      : {}),
    ...(config.evaluations?.model
      ? { evaluations: { ...config.evaluations, model: withProviderDefaults(config.evaluations.model) } }
      : {}),
    instructions:
      instructions.file === undefined ? instructions : { ...instructions, file: resolve(instructions.file) },
    ...(typeof responseFormat === 'string' ? { response_format: resolve(responseFormat) } : {}),
    ...(config.tools ? { tools: config.tools.map((tool) => resolveTool(tool, resolve)) } : {}),
    ...(claude?.working_directory
      ? { claude: { ...claude, working_directory: resolve(claude.working_directory) } }
      : {}),
    ...(testCasesFile
      ? {
          test_cases_file:
            typeof testCasesFile === 'string' ? resolve(testCasesFile) : testCasesFile.map(resolve),
        }
      : {}),
    ...(config.governance
      ? {
          governance: {
            ...config.governance,
            ...(config.governance.rules_file ? { rules_file: resolve(config.governance.rules_file) } : {}),
            ...(config.governance.config_file ? { config_file: resolve(config.governance.config_file) } : {}),
          },
        }
      : {}),
  };
}

/** auth_provider defaults to api_key for anthropic only; ollama defaults to a local server. */
function withProviderDefaults(model: LLMProvider): LLMProvider {
  if (model.provider === 'anthropic' && model.auth_provider === undefined)
    return { ...model, auth_provider: 'api_key' };
  if (model.provider === 'ollama' && model.endpoint === undefined)
    return { ...model, endpoint: OLLAMA_DEFAULT_ENDPOINT };
  return model;
}

function resolveTool(tool: ToolConfig, resolve: (file: string) => string): ToolConfig {
  switch (tool.type) {
    case 'function':
      // The export defaults to the tool's name.
      return { ...tool, file: resolve(tool.file), function: tool.function ?? tool.name };
    case 'vectorstore':
    case 'hierarchical_document':
      return { ...tool, source: resolve(tool.source) };
    case 'mcp': {
      // A bare command (npx, uvx, python) is looked up on PATH; only ./ and ../ mean "next to agent.yaml".
      const local = tool.command !== undefined && /^\.\.?[/\\]/.test(tool.command);
      return {
        ...tool,
        ...(local && tool.command !== undefined ? { command: resolve(tool.command) } : {}),
        ...(tool.cwd !== undefined ? { cwd: resolve(tool.cwd) } : {}),
      };
    }
  }
}

import { describe, expect, it } from 'vitest';
import { aiSdkProfile } from '../../../../src/backends/ai-sdk/ai-sdk-profile.js';
import { agentConfig, loadedAgent } from './loaded-agent-fixture.js';

const functionTool = {
  type: 'function',
  name: 'lookup_order',
  description: 'Look up an order.',
  file: 'tools/orders.mjs',
  parameters: { type: 'object' },
};
const mcpServer = { type: 'mcp', name: 'everything', description: 'MCP server', command: 'npx' };

describe('aiSdkProfile.checkConfig', () => {
  it('accepts a plain agent without issues or warnings', async () => {
    expect(await aiSdkProfile.checkConfig(agentConfig({ tools: [functionTool, mcpServer] }))).toEqual({
      issues: [],
      warnings: [],
    });
  });

  it('warns about settings it ignores, each with its path', async () => {
    const config = agentConfig({
      model: {
        provider: 'ollama',
        name: 'llama3.2',
        auth_provider: 'api_key',
        organization: 'org-1',
        deployment: 'dep',
        api_version: '2024-10-21',
      },
      claude: { max_turns: 3 },
      tool_filtering: { top_k: 3 },
      observability: {
        enabled: true,
        traces: { sample_rate: 0.5 },
        exporters: { otlp: { endpoint: 'http://localhost:4318' }, prometheus: {} },
      },
    });
    const { issues, warnings } = await aiSdkProfile.checkConfig(config);
    expect(issues).toEqual([]);
    expect(warnings).toEqual([
      {
        code: 'claude-block-ignored',
        path: ['claude'],
        message: 'the claude block only applies to provider anthropic and is ignored for provider ollama.',
      },
      {
        code: 'auth-provider-ignored',
        path: ['model', 'auth_provider'],
        message: 'auth_provider only applies to provider anthropic and is ignored for provider ollama.',
      },
      {
        code: 'model-field-ignored',
        path: ['model', 'organization'],
        message: 'model.organization only applies to provider openai and is ignored for provider ollama.',
      },
      {
        code: 'model-field-ignored',
        path: ['model', 'deployment'],
        message: 'model.deployment only applies to provider azure_openai and is ignored for provider ollama.',
      },
      {
        code: 'model-field-ignored',
        path: ['model', 'api_version'],
        message:
          'model.api_version only applies to provider azure_openai and is ignored for provider ollama.',
      },
      {
        code: 'tool-filtering-unsupported',
        path: ['tool_filtering'],
        message:
          'tool_filtering is not supported for provider ollama yet and will be skipped: the model is offered every tool.',
      },
      {
        code: 'observability-unsupported',
        path: ['observability'],
        message:
          'the AI SDK backend (provider ollama) exports no telemetry in chat and test, so these observability settings are ignored there: observability.enabled, observability.traces, observability.exporters.otlp, observability.exporters.prometheus (holodeck serve exports a span per turn and per tool call from observability.traces, and turn metrics from observability.metrics, to exporters.otlp).',
      },
    ]);
  });

  it('runs retrieval tools, checking their sources (tools/retrieval); governance runs', async () => {
    const config = agentConfig({
      tools: [
        functionTool,
        { type: 'vectorstore', name: 'kb', description: 'Knowledge base', source: '/nonexistent/docs' },
      ],
      governance: {
        tenant_id: 't',
        team_id: 'team',
        agent_id: 'a',
        rules_file: 'rules.yaml',
        tool_kinds: {},
      },
    });
    const { issues } = await aiSdkProfile.checkConfig(config);
    expect(issues).toEqual([
      {
        code: 'retrieval-source-missing',
        path: ['tools', 1, 'source'],
        message: '/nonexistent/docs does not exist',
        hint: 'point source at a file or folder, relative to agent.yaml',
      },
    ]);
  });
});

describe('aiSdkProfile static facts', () => {
  it('names function tools by their short name and MCP servers apart', () => {
    const { names, mcpServers } = aiSdkProfile.toolNames(agentConfig({ tools: [functionTool, mcpServer] }));
    expect([...names]).toEqual(['lookup_order']);
    expect(mcpServers).toEqual(['everything']);
  });

  it('warns about a missing key variable, and not when the key is in agent.yaml or not needed', () => {
    expect(aiSdkProfile.credentialWarnings(loadedAgent())).toEqual([
      {
        code: 'credentials-missing',
        message:
          'provider openai needs OPENAI_API_KEY (or model.api_key), which is not set here: `holodeck chat` will stop until it is.',
      },
    ]);
    const azure = { provider: 'azure_openai', name: 'gpt-4o', endpoint: 'https://res.openai.azure.com' };
    expect(aiSdkProfile.credentialWarnings(loadedAgent({ model: azure }))[0]?.message).toContain(
      'provider azure_openai needs AZURE_OPENAI_API_KEY',
    );
    expect(aiSdkProfile.credentialWarnings(loadedAgent({}, { OPENAI_API_KEY: 'k' }))).toEqual([]);
    const inYaml = { provider: 'openai', name: 'gpt-4o', api_key: 'k' };
    expect(aiSdkProfile.credentialWarnings(loadedAgent({ model: inYaml }))).toEqual([]);
    const ollama = { provider: 'ollama', name: 'llama3.2' };
    expect(aiSdkProfile.credentialWarnings(loadedAgent({ model: ollama }))).toEqual([]);
  });

  it('has no side-effect capabilities and works in the agent folder', () => {
    const agent = loadedAgent({ tools: [functionTool] });
    const sideEffects = aiSdkProfile.sideEffects(agent);
    expect(sideEffects.capabilities).toEqual([]);
    expect(sideEffects.withoutSideEffects()).toBe(agent);
    expect(sideEffects.workingDirectory).toBe('/agents/unit');
    expect(aiSdkProfile.isolationLevels).toEqual(['process', 'session']);
    expect(aiSdkProfile.name).toBe('ai-sdk');
  });
});

import { describe, expect, it } from 'vitest';
import * as config from '../../../src/config/index.js';

describe('config/index.ts', () => {
  it('exports exactly the public runtime API', () => {
    expect(Object.keys(config).sort()).toEqual(
      [
        'AgentConfigSchema',
        'AuthProviderSchema',
        'BashConfigSchema',
        'ClaudeConfigSchema',
        'EXPRESSION_NAMES',
        'EvaluationConfigSchema',
        'LabelledExampleSchema',
        'LabelsFileSchema',
        'ExpectedToolSchema',
        'ExpectedVerdictSchema',
        'ExtendedThinkingConfigSchema',
        'FileSystemConfigSchema',
        'FunctionToolSchema',
        'GovernanceConfigSchema',
        'HierarchicalDocumentToolSchema',
        'InstructionsSchema',
        'LLMProviderSchema',
        'McpToolSchema',
        'MetricConfigSchema',
        'NOVARCH_API_KEY_VARIABLE',
        'OLLAMA_DEFAULT_ENDPOINT',
        'PII_KINDS',
        'ObservabilityConfigSchema',
        'PermissionModeSchema',
        'ProviderSchema',
        'ResponseFormatSchema',
        'SettingSourceSchema',
        'SubagentConfigSchema',
        'TOOL_NAME_PATTERN',
        'TestCaseSchema',
        'TestTurnSchema',
        'ToolConfigSchema',
        'ToolFilteringConfigSchema',
        'VectorstoreToolSchema',
        'agentJsonSchema',
        'checkServerKey',
        'checkWriteSpecKeys',
        'formatFieldPath',
        'loadAgentConfig',
        'loadLabelsFile',
        'loadTestCasesFile',
        'validateAgentFile',
      ].sort(),
    );
  });
});

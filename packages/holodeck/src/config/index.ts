// Public surface of config/: agent.yaml schema, loader and validation. Explicit list, no wildcards.

export {
  type FieldIssue,
  type FieldPath,
  formatFieldPath,
  suggestionHint,
  type YamlPosition,
} from 'yaml-diagnostics';
export { agentJsonSchema } from './agent-json-schema.js';
export { checkServerKey, checkWriteSpecKeys } from './check-governance.js';
export type { FieldWarning } from './field-warning.js';
export { type CaseFileMatch, findCaseFiles } from './find-case-files.js';
export { loadAgentConfig } from './load-agent-config.js';
export { type LabelsFile, loadLabelsFile } from './load-labels-file.js';
export { loadTestCasesFile, type TestCasesFile } from './load-test-cases-file.js';
export type {
  AgentValidation,
  CheckGovernanceFiles,
  ConfigWarning,
  GovernanceFiles,
  GovernanceFilesReport,
  LoadAgentOptions,
  LoadedAgent,
} from './loaded-agent.js';
export { isTemplate, renderTemplate } from './render-template.js';
export {
  type AgentConfig,
  AgentConfigSchema,
  type InstructionsConfig,
  InstructionsSchema,
  ResponseFormatSchema,
} from './schema/agent-config-schema.js';
export { EXPRESSION_NAMES, PII_KINDS } from './schema/assertion-metric-schemas.js';
export type { AttemptLimits } from './schema/attempt-limits-schema.js';
export {
  type BashConfig,
  BashConfigSchema,
  type ClaudeConfig,
  ClaudeConfigSchema,
  type ExtendedThinkingConfig,
  ExtendedThinkingConfigSchema,
  type FileSystemConfig,
  FileSystemConfigSchema,
  type PermissionMode,
  PermissionModeSchema,
  type SettingSource,
  SettingSourceSchema,
  type SubagentConfig,
  SubagentConfigSchema,
} from './schema/claude-config-schema.js';
export {
  type DefaultCase,
  type EvaluationConfig,
  EvaluationConfigSchema,
  type ExpectedTool,
  ExpectedToolSchema,
  type ExpectedVerdict,
  ExpectedVerdictSchema,
  type MetricConfig,
  MetricConfigSchema,
  type MetricType,
  type TestCase,
  TestCaseSchema,
  type TestTurn,
  TestTurnSchema,
} from './schema/evaluation-config-schema.js';
export {
  type GovernanceConfig,
  GovernanceConfigSchema,
  type GovernanceWriteSpec,
  NOVARCH_API_KEY_VARIABLE,
} from './schema/governance-config-schema.js';
export {
  type LabelledExample,
  LabelledExampleSchema,
  LabelsFileSchema,
} from './schema/labels-file-schema.js';
export {
  type AuthProvider,
  AuthProviderSchema,
  type LLMProvider,
  LLMProviderSchema,
  type ModelConfig,
  OLLAMA_DEFAULT_ENDPOINT,
  type Provider,
  ProviderSchema,
} from './schema/llm-provider-schema.js';
export {
  type ObservabilityConfig,
  ObservabilityConfigSchema,
  type ToolFilteringConfig,
  ToolFilteringConfigSchema,
} from './schema/observability-config-schema.js';
export {
  durationSeconds,
  type OptimizeAxis,
  OptimizeAxisSchema,
  type OptimizeConfig,
  OptimizeConfigSchema,
} from './schema/optimize-config-schema.js';
export {
  HNSW_DEFAULT_EF_CONSTRUCTION,
  HNSW_DEFAULT_M,
  hybridCandidates,
} from './schema/retrieval-hnsw-schema.js';
export {
  type FunctionToolConfig,
  FunctionToolSchema,
  type HierarchicalDocumentToolConfig,
  HierarchicalDocumentToolSchema,
  type McpToolConfig,
  McpToolSchema,
  TOOL_NAME_PATTERN,
  type ToolConfig,
  ToolConfigSchema,
  type VectorstoreToolConfig,
  VectorstoreToolSchema,
} from './schema/tool-config-schema.js';
export type {
  CalledBefore,
  MaxToolCalls,
  SequenceStep,
  ToolSequence,
} from './schema/trajectory-schema.js';
export type { CheckBackendConfig, StartupRuleResult } from './startup-rules.js';
export { validateAgentFile } from './validate-agent-file.js';
export { WARNING_CODES, type WarningCode } from './warning-code.js';

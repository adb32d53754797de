import type { FieldPath, YamlPosition } from 'yaml-diagnostics';
import type { ConfigIssue } from '../errors.js';
import type { AgentConfig } from './schema/agent-config-schema.js';
import type { CheckBackendConfig } from './startup-rules.js';
import type { WarningCode } from './warning-code.js';

/** Something in agent.yaml that does not stop the agent but works differently than written. */
export interface ConfigWarning {
  /** Stable identifier, e.g. `allowed-tool-unknown`; tests and tools match on it. */
  code: WarningCode;
  message: string;
  /** Dotted field path, e.g. `claude.working_directory`. */
  path?: string;
  file?: string;
  line?: number;
}

/** A valid agent.yaml with everything it references loaded. */
export interface LoadedAgent {
  /** Absolute path of agent.yaml. */
  file: string;
  /** The folder agent.yaml is in; relative paths start here. */
  directory: string;
  /** Parsed, `${VAR}`-substituted, defaults applied, every path absolute. */
  config: AgentConfig;
  /** The system prompt: instructions.inline or the contents of instructions.file. */
  instructions: string;
  /** The JSON Schema of response_format (inline or loaded from its file), checked with ajv. */
  responseFormat?: Record<string, unknown>;
  /** `~/.holodeck/.env` < `<agent folder>/.env` < process environment. */
  env: Record<string, string>;
  warnings: ConfigWarning[];
  /**
   * Where a field path of agent.yaml is (line and column), for problems found after loading (test
   * cases, tool modules, metrics). Absent on an agent not loaded from a file.
   */
  locate?: (path: FieldPath) => YamlPosition;
}

/** What validateAgentFile found. `agent` is set exactly when there are no issues. */
export interface AgentValidation {
  issues: ConfigIssue[];
  warnings: ConfigWarning[];
  agent?: LoadedAgent;
}

/** The Novarch files a `governance:` block names, as absolute paths; one is absent when its ${VAR} is unset. */
export interface GovernanceFiles {
  rulesFile?: string;
  configFile?: string;
}

/** What reading the governance files found. */
export interface GovernanceFilesReport {
  /** Problems inside those files, located there (file:line:col), as Novarch reports them. */
  issues: ConfigIssue[];
  /** The rules file's `action_types`, when it can be read (also when other parts of it are broken). */
  actionTypes?: readonly string[];
  /** The rules file's `team:`, when the file is valid. */
  team?: string;
}

/** Reads and checks the governance files. Injected by the caller because config/ does not import novarch. */
export type CheckGovernanceFiles = (files: GovernanceFiles) => Promise<GovernanceFilesReport>;

/** Options of loadAgentConfig and validateAgentFile. */
export interface LoadAgentOptions {
  /** Environment used for `${VAR}` and merged last; default process.env (never modified). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Home folder holding `.holodeck/.env`; default os.homedir(). */
  homeDir?: string;
  /**
   * Also check the rules and config files of a `governance:` block (`holodeck validate` passes
   * Novarch's loaders here); without it, only agent.yaml's own governance fields are cross-checked.
   */
  checkGovernanceFiles?: CheckGovernanceFiles;
  /**
   * The startup rules of the agent's backend (`checkBackendConfig` of backends/select-backend.ts);
   * without it only the provider-neutral rules run here, and the backend checks its own rules
   * again when it initializes.
   */
  checkBackendConfig?: CheckBackendConfig;
}

import type { FieldPath, YamlPosition } from 'yaml-diagnostics';
import type { InstructionsConfig, LoadedAgent, ModelConfig } from '../../config/index.js';

/** Where a matrix is written: agent.yaml's `matrix:` block, a `--matrix` file, or `--matrix` text. */
export interface MatrixSource {
  /** The file the matrix is in (agent.yaml, the --matrix file), or `--matrix` for inline text. */
  file: string;
  /** The matrix's own field path in that file: `['matrix']` in agent.yaml, `[]` in a --matrix file. */
  path: FieldPath;
  /** Line and column of a field path of that file. */
  locate?: (path: FieldPath) => YamlPosition;
  /** Relative instruction files start here. */
  directory: string;
}

/** The fields of agent.yaml a variant runs with instead of the agent's own, as written. */
export interface VariantOverrides {
  model?: Partial<ModelConfig>;
  instructions?: InstructionsConfig;
  temperature?: number;
  max_turns?: number;
}

/** One variant of a matrix, ready to run: its name and the agent it runs as. */
export interface MatrixVariant {
  /** Stable name: given, or derived from the overrides (`gpt-4o/concise/t0.7`). */
  name: string;
  overrides: VariantOverrides;
  /** The agent with the overrides applied (validated, instructions loaded, `matrix` removed). */
  agent: LoadedAgent;
  /** The backend its provider selects: `claude` or `ai-sdk`. */
  backend: string;
}

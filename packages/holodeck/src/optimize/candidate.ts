import type { LoadedAgent } from '../config/index.js';

/** What a candidate changes in agent.yaml; absent fields keep the agent's own values. */
export interface CandidateChanges {
  /** The whole system prompt. */
  instructions?: string;
  temperature?: number;
  max_turns?: number;
  /** `model.name`, on the agent's provider. */
  model?: string;
  /** Tool name → its description. */
  tool_descriptions?: Record<string, string>;
}

/** One point of the search: its changes against agent.yaml and where it came from. */
export interface Candidate {
  /** `t0` is the agent as written; trials count up from `t1`. */
  id: string;
  changes: CandidateChanges;
  /** `baseline`, `proposer` (new instructions), or the enumerated axis that changed. */
  origin: 'baseline' | 'proposer' | 'temperature' | 'max_turns' | 'model' | 'tool_descriptions';
  /** The candidate it was derived from (the best one when it was made). */
  parent?: string;
  /** The proposer's reason for new instructions. */
  rationale?: string;
}

/** The agent with a candidate's changes applied: nothing on disk changes. */
export function applyCandidate(agent: LoadedAgent, changes: CandidateChanges): LoadedAgent {
  const config = structuredClone(agent.config);
  let instructions = agent.instructions;
  if (changes.instructions !== undefined) {
    instructions = changes.instructions;
    config.instructions = { inline: changes.instructions };
  }
  if (changes.temperature !== undefined) config.model = { ...config.model, temperature: changes.temperature };
  if (changes.model !== undefined) config.model = { ...config.model, name: changes.model };
  if (changes.max_turns !== undefined) {
    config.max_turns = changes.max_turns;
    if (config.claude?.max_turns !== undefined) config.claude = { ...config.claude, max_turns: undefined };
  }
  if (changes.tool_descriptions !== undefined && config.tools) {
    const descriptions = changes.tool_descriptions;
    config.tools = config.tools.map((tool) =>
      descriptions[tool.name] !== undefined ? { ...tool, description: descriptions[tool.name] } : tool,
    ) as typeof config.tools;
  }
  return { ...agent, config, instructions };
}

/** A short line naming what a candidate changes, e.g. `temperature 0.3, instructions (212 chars)`. */
export function describeChanges(changes: CandidateChanges): string {
  const parts: string[] = [];
  if (changes.instructions !== undefined) parts.push(`instructions (${changes.instructions.length} chars)`);
  if (changes.temperature !== undefined) parts.push(`temperature ${changes.temperature}`);
  if (changes.max_turns !== undefined) parts.push(`max_turns ${changes.max_turns}`);
  if (changes.model !== undefined) parts.push(`model ${changes.model}`);
  for (const [tool, description] of Object.entries(changes.tool_descriptions ?? {}))
    parts.push(`${tool} description (${description.length} chars)`);
  return parts.length ? parts.join(', ') : 'agent.yaml as written';
}

/** A stable key of a set of changes, to never try the same candidate twice. */
export function changesKey(changes: CandidateChanges): string {
  const tools = changes.tool_descriptions ?? {};
  return JSON.stringify([
    changes.instructions ?? null,
    changes.temperature ?? null,
    changes.max_turns ?? null,
    changes.model ?? null,
    Object.keys(tools)
      .sort()
      .map((name) => [name, tools[name]]),
  ]);
}

import { z } from 'zod';
import { AgentConfigSchema } from './schema/agent-config-schema.js';

/**
 * JSON Schema (draft 2020-12) of agent.yaml, for editors. Generated from the zod schema so the two
 * never drift; `io: 'input'` because users write the input side (defaults make keys optional).
 * Cross-field rules (exactly one of inline/file, transport fields, ...) are only in the loader.
 */
export function agentJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(AgentConfigSchema, { target: 'draft-2020-12', io: 'input' });
}

import type { RecordedRequest } from '../request/recorded-request.js';
import type { ResolvedStep, ScriptStep } from './script-step.js';

const MAX_DYNAMIC_DEPTH = 10;

/** Evaluates dynamic steps (`respond(...)`) until a message or error step comes out. */
export async function resolveStep(step: ScriptStep, request: RecordedRequest): Promise<ResolvedStep> {
  let current = step;
  for (let depth = 0; depth < MAX_DYNAMIC_DEPTH; depth += 1) {
    if (current.type !== 'dynamic') return current;
    current = await current.build(request);
  }
  throw new Error(`respond() steps nested more than ${MAX_DYNAMIC_DEPTH} levels deep`);
}

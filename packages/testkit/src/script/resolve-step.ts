/** A step whose answer is computed from the request it answers (`respond(...)`, `chatRespond(...)`). */
export interface DynamicStepOf<Request, Step> {
  type: 'dynamic';
  label: string;
  build: (request: Request) => Step | Promise<Step>;
}

/** A script step of some fake: a final step, or a dynamic one that yields another step. */
export type ScriptedStep<Request, Resolved> =
  | Resolved
  | DynamicStepOf<Request, ScriptedStep<Request, Resolved>>;

const MAX_DYNAMIC_DEPTH = 10;

function isDynamic<Request, Resolved extends { type: string }>(
  step: ScriptedStep<Request, Resolved>,
): step is DynamicStepOf<Request, ScriptedStep<Request, Resolved>> {
  return step.type === 'dynamic';
}

/** Evaluates dynamic steps until a final step (a message, an error, ...) comes out. */
export async function resolveStep<Request, Resolved extends { type: string }>(
  step: ScriptedStep<Request, Resolved>,
  request: Request,
): Promise<Resolved> {
  let current = step;
  for (let depth = 0; depth < MAX_DYNAMIC_DEPTH; depth += 1) {
    if (!isDynamic(current)) return current;
    current = await current.build(request);
  }
  throw new Error(`respond() steps nested more than ${MAX_DYNAMIC_DEPTH} levels deep`);
}

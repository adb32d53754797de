/**
 * The variable that marks a process as running inside a governed session: the gate adds it to the
 * agent's environment (`NovarchHookGate.agentEnv`), and the operator CLI refuses to decide holds
 * or kill sessions where it is set (in its own environment, or in an ancestor process's).
 */
export const GOVERNED_SESSION_ENV = 'NOVARCH_GOVERNED_SESSION';

/** `env` (default this process's) with the marker of `sessionId` added. */
export function governedEnvironment(
  sessionId: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Record<string, string> {
  const marked: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) marked[name] = value;
  marked[GOVERNED_SESSION_ENV] = sessionId;
  return marked;
}

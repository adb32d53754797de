/**
 * The variable that marks a process as running inside a governed session: the gate adds it to the
 * agent's environment (`NovarchHookGate.agentEnv`), and the operator CLI refuses to decide holds
 * or kill sessions where it is set (in its own environment, or in an ancestor process's). Its
 * value is a plain marker, not the session's id: the agent needs nothing of its session to run.
 */
export const GOVERNED_SESSION_ENV = 'NOVARCH_GOVERNED_SESSION';

/** The value of the marker. */
export const GOVERNED_MARKER = 'governed';

/**
 * Whether a variable belongs to Novarch and stays out of the agent's environment: every
 * `NOVARCH_*` variable (the agent key `NOVARCH_API_KEY`, the operator token `NOVARCH_TOKEN`, the
 * database URL `NOVARCH_STORE_URL`, webhook secrets, the server and store the gate uses), in any
 * case, since Windows and some shells fold it.
 */
export function isNovarchVariable(name: string): boolean {
  return name.toUpperCase().startsWith('NOVARCH_');
}

/**
 * `env` (default this process's) without Novarch's own variables, with the governed marker added.
 * The gate talks to its engine from this process; the agent's shell gets no key, token or session
 * id with which it could report evidence or decide holds in the session's name.
 */
export function governedEnvironment(
  env: Readonly<Record<string, string | undefined>> = process.env,
): Record<string, string> {
  const marked: Record<string, string> = {};
  for (const [name, value] of Object.entries(env))
    if (value !== undefined && !isNovarchVariable(name)) marked[name] = value;
  marked[GOVERNED_SESSION_ENV] = GOVERNED_MARKER;
  return marked;
}

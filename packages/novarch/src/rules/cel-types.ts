// The typed CEL variables. The checker uses the field lists to catch typos at load time
// (`action.contxt`, `e.tooll`); `input`, `output` and `context` stay open (`dyn` / map) because
// their shape depends on the tool. Values must be instances of these classes: the CEL library
// checks the type of list items (`evidence[0]`) by constructor, not by shape.

/** `action` in a condition. */
export class CelAction {
  constructor(
    readonly type: string,
    readonly tool: string,
    readonly input: unknown,
    readonly context: Record<string, unknown>,
    readonly reasoning: string,
  ) {}
}

/** One item of `evidence` in a condition. */
export class CelEvidence {
  constructor(
    readonly id: string,
    readonly tool: string,
    readonly input: unknown,
    readonly output: unknown,
    readonly is_error: boolean,
  ) {}
}

/** `session` in a condition. */
export class CelSession {
  constructor(
    readonly tenant_id: string,
    readonly team_id: string,
    readonly agent_id: string,
  ) {}
}

/** The CEL types, their constructors and their field types. */
export const CEL_TYPES = {
  Action: {
    ctor: CelAction,
    fields: {
      type: 'string',
      tool: 'string',
      input: 'dyn',
      context: 'map<string, dyn>',
      reasoning: 'string',
    },
  },
  Evidence: {
    ctor: CelEvidence,
    fields: { id: 'string', tool: 'string', input: 'dyn', output: 'dyn', is_error: 'bool' },
  },
  Session: { ctor: CelSession, fields: { tenant_id: 'string', team_id: 'string', agent_id: 'string' } },
} as const;

/** The variables a condition can use, with their CEL types. */
export const CEL_VARIABLES = {
  action: 'Action',
  evidence: 'list<Evidence>',
  session: 'Session',
  // Registered by `registerHistory` (rules/history/cel-history.ts).
  history: 'History',
} as const;

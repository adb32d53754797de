/**
 * MCP elicitation as a tool call passes it up: the MCP server of the call asks the user for input
 * while the call runs (`elicitation/create`). The backend's session decides who answers
 * (backends/contract/elicitation.ts); the tool only forwards the question and the answer.
 */

/** A value of an answered form field (MCP forms are flat: strings, numbers, booleans, enum lists). */
export type ElicitationValue = string | number | boolean | string[];

/** The answer to an elicitation request, as the MCP server receives it. */
export type ElicitationAnswer =
  | { action: 'accept'; content: Record<string, ElicitationValue> }
  | { action: 'decline' }
  | { action: 'cancel' };

/** What an MCP server asks, as the server sent it (its text is data: escape it before a terminal). */
export interface ElicitationQuestion {
  /** The MCP server's name in agent.yaml. */
  server: string;
  message: string;
  /** `form`: fields described by `requestedSchema`; `url`: the user is sent to `url`. */
  mode: 'form' | 'url';
  /** The JSON Schema of the form (form mode): an object of flat properties. */
  requestedSchema?: Record<string, unknown>;
  url?: string;
}

/** Asks whoever answers elicitations in this run; `signal` aborts the wait (the answer is then `cancel`). */
export type Elicit = (question: ElicitationQuestion, signal?: AbortSignal) => Promise<ElicitationAnswer>;

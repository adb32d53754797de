/** One structured question: the model must answer by calling one tool whose input matches `schema`. */
export interface StructuredRequest {
  system: string;
  /** The user message. */
  prompt: string;
  /** Name of the tool the model is forced to call (letters, digits, `_` and `-`; at most 64). */
  toolName: string;
  /** Told to the model; default "Submit your answer. This is the only way to answer." */
  toolDescription?: string;
  /** JSON Schema of the answer: the tool's input schema, and what the answer is validated against (ajv). */
  schema: Record<string, unknown>;
  /**
   * Sampling temperature of this request; default JUDGE_TEMPERATURE (0). A caller asking the same
   * question several times (G-Eval samples, self-consistency) sets one above 0 for the repeats.
   */
  temperature?: number;
}

/** Default description of the forced tool. */
export const DEFAULT_TOOL_DESCRIPTION = 'Submit your answer. This is the only way to answer.';

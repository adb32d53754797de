/** A tool call of a saved conversation, named as agent.yaml names the tool. */
export interface TranscriptToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** One user turn of a saved conversation: the message, the tools that ran, the final answer. */
export interface TranscriptTurn {
  input: string;
  toolCalls: TranscriptToolCall[];
  /** The agent's last text of the turn (after its last tool call); empty when it gave none. */
  response: string;
}

/** A saved chat session as `readTranscript` returns it (`holodeck test add --from-session`). */
export interface SessionTranscript {
  sessionId: string;
  turns: TranscriptTurn[];
}

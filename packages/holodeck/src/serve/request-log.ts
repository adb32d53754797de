/** What one request's log line says (never message text unless --log-content). */
export interface RequestLogLine {
  time: string;
  method: string;
  /** The declared route (`/v1/sessions/{sessionId}/messages`), or the path of an unknown one. */
  route: string;
  status: number;
  durationMs: number;
  session?: string;
  key?: string;
  stream?: boolean;
  tokens?: number;
  costUsd?: number | null;
  /** The user message (only with --log-content). */
  content?: string;
}

/** Writes one line per request: JSON when the output is not a terminal, a short line when it is. */
export function requestLogger(
  output: NodeJS.WritableStream & { isTTY?: boolean },
): (line: RequestLogLine) => void {
  return (line) => {
    if (output.isTTY) {
      const extra = [
        line.session && `session=${line.session}`,
        line.tokens !== undefined && `tokens=${line.tokens}`,
      ]
        .filter(Boolean)
        .join(' ');
      output.write(
        `${line.method} ${line.route} ${line.status} ${line.durationMs}ms${extra ? ` ${extra}` : ''}\n`,
      );
    } else output.write(`${JSON.stringify(line)}\n`);
  };
}

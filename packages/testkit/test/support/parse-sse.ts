/** One parsed server-sent event. */
export interface ParsedSseEvent {
  event: string;
  data: unknown;
}

/** Parses a complete `text/event-stream` body; throws on a frame that is not `event:` + `data:` JSON. */
export function parseSse(text: string): ParsedSseEvent[] {
  const frames = text.split('\n\n').filter((frame) => frame.trim() !== '');
  return frames.map((frame) => {
    const lines = frame.split('\n');
    const eventLine = lines.find((line) => line.startsWith('event: '));
    const dataLine = lines.find((line) => line.startsWith('data: '));
    if (eventLine === undefined || dataLine === undefined || lines.length !== 2) {
      throw new Error(`malformed SSE frame: ${JSON.stringify(frame)}`);
    }
    return { event: eventLine.slice('event: '.length), data: JSON.parse(dataLine.slice('data: '.length)) };
  });
}

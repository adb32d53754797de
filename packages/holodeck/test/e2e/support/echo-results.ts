import { reply, respond, toolResults } from '@holodeck/testkit';

/** A final reply that echoes the tool results the CLI sent back, so the test sees the round trip. */
export const echoResults = respond((request) =>
  reply(
    `results: ${toolResults(request)
      .map((r) => withoutReminders(r.text))
      .join(' | ')}`,
  ),
);

/** The CLI appends `<system-reminder>` blocks to tool results; the tool's own output comes first. */
export function withoutReminders(text: string): string {
  return text.split('<system-reminder>')[0]?.trim() ?? '';
}

/**
 * Text for Slack's `mrkdwn` and `plain_text`, from anything a model or an agent wrote: `&`, `<` and
 * `>` escaped as Slack asks (so `<!channel>`, `<@U…>` or `<https://…|label>` in an agent's summary
 * stays text, never a mention or a link), control characters dropped, bounded to `max` characters.
 */
export function slackText(text: string, max = 2_000): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
  const clean = text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
  const bounded = clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
  return bounded.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Text for inside a ``` code block: escaped as `slackText`, with no ``` to close the block early. */
export function slackCode(text: string, max = 1_500): string {
  return slackText(text, max).replace(/```/g, "'''");
}

/** The chat's own commands: handled by HoloDeck, never sent to the model. */
export const SLASH_COMMANDS = [
  { name: 'help', usage: '/help', about: 'this list, and the keys of the prompt' },
  { name: 'clear', usage: '/clear', about: 'start a new conversation (the model forgets this one)' },
  { name: 'tools', usage: '/tools', about: 'what the agent may call, and why not the others' },
  { name: 'usage', usage: '/usage', about: 'tokens and cost of this chat so far' },
  { name: 'save', usage: '/save [file]', about: 'write the transcript: markdown, or JSON for a .json file' },
  {
    name: 'exit',
    usage: '/exit',
    about: 'end the chat (so does /quit, Ctrl+D, or Ctrl+C twice at an empty prompt)',
  },
  { name: 'quit', usage: '/quit', about: 'end the chat' },
] as const;

export type SlashCommandName = (typeof SLASH_COMMANDS)[number]['name'];

/** What a line typed at the prompt means. */
export type PromptInput =
  | { kind: 'message'; text: string }
  | { kind: 'command'; name: SlashCommandName; argument: string }
  | { kind: 'unknown-command'; word: string }
  | { kind: 'empty' };

/** Reads a line: `/word [argument]` is a command; `//text` is the message `/text`. */
export function parsePromptInput(line: string): PromptInput {
  const text = line.trim();
  if (!text) return { kind: 'empty' };
  if (text.startsWith('//')) return { kind: 'message', text: text.slice(1) };
  if (!text.startsWith('/')) return { kind: 'message', text: line.replace(/^\s+|\s+$/g, '') };
  const [word = '', ...rest] = text.slice(1).split(/\s+/);
  const command = SLASH_COMMANDS.find((candidate) => candidate.name === word);
  if (!command) return { kind: 'unknown-command', word: `/${word}` };
  return { kind: 'command', name: command.name, argument: rest.join(' ') };
}

/** The text of /help (and of an unknown command). */
export function describeCommands(): string {
  const width = Math.max(...SLASH_COMMANDS.map((command) => command.usage.length));
  return SLASH_COMMANDS.map((command) => `  ${command.usage.padEnd(width)}  ${command.about}`).join('\n');
}

export const KEYS_HELP = [
  'Keys: Enter sends · Alt+Enter, Ctrl+J or a trailing \\ starts a new line · a paste is one message',
  '      ↑/↓ history · Ctrl+R searches it · Tab completes a /command',
  '      Ctrl+A/E line start/end · Alt+B/F or Ctrl+←/→ a word back/forward · Ctrl+W or Alt+Backspace deletes a word',
  '      Ctrl+U/K delete to start/end · Ctrl+X Ctrl+E or Ctrl+G edits the message in $VISUAL/$EDITOR · Ctrl+L clear screen',
  '      Ctrl+C or Esc interrupts the answer · Ctrl+C clears the line; twice at an empty prompt ends the chat · Ctrl+D ends it',
  '      //text sends a message that starts with /',
].join('\n');

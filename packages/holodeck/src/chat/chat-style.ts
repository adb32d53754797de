/** Colours of the terminal chat; all identity functions when colours are off (NO_COLOR, not a TTY). */
export interface ChatStyle {
  readonly enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  italic(text: string): string;
  underline(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  /** Whether `link` makes OSC 8 hyperlinks (the terminal shows the text, clickable). */
  readonly hyperlinks: boolean;
  /** `text` linked to `href`: an OSC 8 hyperlink when the terminal supports them, else the text. */
  link(text: string, href: string): string;
}

/**
 * Whether the terminal shows OSC 8 hyperlinks: `FORCE_HYPERLINK=1`/`0` decides; otherwise the
 * terminals known to (iTerm2, WezTerm, VS Code, Ghostty, kitty, Windows Terminal, Konsole, VTE ≥ 0.50).
 */
export function terminalSupportsHyperlinks(env: Record<string, string | undefined> = process.env): boolean {
  if (env.FORCE_HYPERLINK !== undefined)
    return env.FORCE_HYPERLINK !== '0' && env.FORCE_HYPERLINK !== 'false';
  if (env.TERM === 'dumb') return false;
  if (['iTerm.app', 'WezTerm', 'vscode', 'ghostty'].includes(env.TERM_PROGRAM ?? '')) return true;
  if (env.WT_SESSION || env.KITTY_WINDOW_ID || env.KONSOLE_VERSION || env.TERM === 'xterm-kitty') return true;
  return Number(env.VTE_VERSION ?? 0) >= 5000;
}

export function createChatStyle(enabled: boolean, options: { hyperlinks?: boolean } = {}): ChatStyle {
  const wrap = (open: number, close: number) => (text: string) =>
    enabled && text ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    enabled,
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    italic: wrap(3, 23),
    underline: wrap(4, 24),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
    hyperlinks: options.hyperlinks === true,
    link: (text, href) =>
      // The address is the model's: only printable characters, no spaces, no escape of its own.
      options.hyperlinks === true
        ? `\u001b]8;;${encodeURI(href).replace(/[^\x21-\x7e]/g, '')}\u001b\\${text}\u001b]8;;\u001b\\`
        : text,
  };
}

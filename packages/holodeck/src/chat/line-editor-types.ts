// The keys LineEditor reads, what a read ends with, and what it may call on.

/** A key as Node's keypress parser reports it (`readline.emitKeypressEvents`). */
export interface Key {
  name?: string;
  sequence?: string;
  ctrl?: boolean;
  meta?: boolean;
  shift?: boolean;
}

/** How reading one message ended. */
export type LineResult = { kind: 'line'; text: string } | { kind: 'interrupt' } | { kind: 'eof' };

/** What the editor may call on: completion candidates, and the user's external editor. */
export interface LineEditorHelpers {
  /** Words Tab completes at the start of the line (the chat's slash commands). */
  completions?: readonly string[];
  /**
   * Opens the text in the user's editor (Ctrl+X Ctrl+E or Ctrl+G) and returns what was saved, or an
   * error line to show; blocks until the editor exits.
   */
  openEditor?: (text: string) => { text: string } | { error: string };
  /** Dims a hint line (colours off: unchanged). */
  dim?: (text: string) => string;
}

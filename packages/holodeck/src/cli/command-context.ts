import type { ExitCodeValue } from './exit-codes.js';
import type { Style } from './terminal-style.js';

/** What main.ts hands every command it registers. */
export interface CommandContext {
  /** Colours for stderr. */
  style: Style;
  /** Hands main.ts the command's work; main awaits it, then exits with its code. */
  run(code: Promise<ExitCodeValue>): void;
  /**
   * Turns on SIGINT/SIGTERM handling for a command that can stop cleanly: the first signal prints
   * `stopping: <stopping>` and aborts the returned signal; a second exits at once (130).
   */
  interruptible(stopping: string): AbortSignal;
}

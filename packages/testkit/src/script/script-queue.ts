import type { ScriptStep } from './script-step.js';

/** The steps still to be answered, in order. */
export class ScriptQueue {
  private steps: ScriptStep[] = [];
  private lastTaken: ScriptStep | undefined;

  /** @param repeatLast when the queue is empty, answer with the last step taken again (bin mode). */
  constructor(private readonly repeatLast = false) {}

  append(steps: readonly ScriptStep[]): void {
    this.steps.push(...steps);
  }

  /** The next step, or `undefined` when the script is exhausted. */
  take(): ScriptStep | undefined {
    const step = this.steps.shift();
    if (step !== undefined) {
      this.lastTaken = step;
      return step;
    }
    return this.repeatLast ? this.lastTaken : undefined;
  }

  /** Steps not taken yet. */
  remaining(): readonly ScriptStep[] {
    return [...this.steps];
  }

  clear(): void {
    this.steps = [];
    this.lastTaken = undefined;
  }
}

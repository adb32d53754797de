/** The steps still to be answered, in order. */
export class ScriptQueue<Step> {
  private steps: Step[] = [];
  private lastTaken: Step | undefined;

  /** @param repeatLast when the queue is empty, answer with the last step taken again (bin mode). */
  constructor(private readonly repeatLast = false) {}

  append(steps: readonly Step[]): void {
    this.steps.push(...steps);
  }

  /** The next step, or `undefined` when the script is exhausted. */
  take(): Step | undefined {
    const step = this.steps.shift();
    if (step !== undefined) {
      this.lastTaken = step;
      return step;
    }
    return this.repeatLast ? this.lastTaken : undefined;
  }

  /** Steps not taken yet. */
  remaining(): readonly Step[] {
    return [...this.steps];
  }

  clear(): void {
    this.steps = [];
    this.lastTaken = undefined;
  }
}

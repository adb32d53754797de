/** Runs at most `limit` tasks at once; the others wait their turn, first come first served. */
export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`limit must be an integer >= 1, got ${limit}`);
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    // A free slot is taken at once, so the task starts before run() first yields.
    if (this.running < this.limit) this.running++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      this.handOver();
    }
  }

  /** Waits for a turn and returns the function that ends it (for work that does not fit in one promise). */
  async acquire(): Promise<() => void> {
    if (this.running < this.limit) this.running++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.handOver();
    };
  }

  /**
   * A finishing task hands its slot straight to the next waiter, so a newcomer cannot take it in
   * between and exceed the limit.
   */
  private handOver(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}

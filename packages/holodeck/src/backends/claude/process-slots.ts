/** Frees a slot; calling it again does nothing. */
export type ReleaseSlot = () => void;

/**
 * Counts the CLI processes of one backend against a bound (`--max-processes`): every process
 * holds a slot from before it is spawned until it has exited, so no more are ever alive at once.
 * A run waits for a free slot; a spare only starts in one that is free now (`tryAcquire`).
 */
export class ProcessSlots {
  private used = 0;
  private readonly waiting: (() => void)[] = [];

  /**
   * @param limit most processes alive at once
   * @param onShortage called when a run has to wait for a slot, so an idle spare can make room
   */
  constructor(
    readonly limit: number,
    private readonly onShortage: () => void = () => {},
  ) {
    if (!(limit === Number.POSITIVE_INFINITY || (Number.isInteger(limit) && limit >= 1)))
      throw new RangeError(`limit must be an integer >= 1, got ${limit}`);
  }

  /** Processes alive (or about to be spawned) now. */
  get alive(): number {
    return this.used;
  }

  /** A slot if one is free now, else undefined. */
  tryAcquire(): ReleaseSlot | undefined {
    if (this.used >= this.limit) return undefined;
    this.used++;
    return this.releaser();
  }

  /** A slot, once one is free (first come, first served). */
  async acquire(): Promise<ReleaseSlot> {
    const slot = this.waiting.length ? undefined : this.tryAcquire();
    if (slot) return slot;
    const granted = new Promise<void>((resolve) => this.waiting.push(resolve));
    this.onShortage();
    await granted;
    return this.releaser();
  }

  private releaser(): ReleaseSlot {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // A freed slot goes straight to the next waiter, so a newcomer cannot take it in between.
      const next = this.waiting.shift();
      if (next) next();
      else this.used--;
    };
  }
}

/** A queue one producer side pushes to and one consumer awaits: how a turn's events and approval requests meet. */
export class EventChannel<T> {
  private readonly items: T[] = [];
  private waiting: (() => void) | undefined;

  push(item: T): void {
    this.items.push(item);
    const wake = this.waiting;
    this.waiting = undefined;
    wake?.();
  }

  /** The next item, waiting for one if there is none. */
  async next(): Promise<T> {
    while (this.items.length === 0) {
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
      });
    }
    return this.items.shift() as T;
  }
}

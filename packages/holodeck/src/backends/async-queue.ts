/**
 * An unbounded async queue of both backends: producers `push`, one consumer iterates until `end`
 * (the Claude backend's input and event streams) or awaits `next()` (the AI SDK backend's turn items).
 */
export class AsyncQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiting: ((result: IteratorResult<T>) => void) | undefined;
  private ended = false;

  push(item: T): void {
    if (this.ended) return;
    const waiter = this.waiting;
    if (waiter) {
      this.waiting = undefined;
      waiter({ value: item, done: false });
    } else {
      this.items.push(item);
    }
  }

  end(): void {
    this.ended = true;
    const waiter = this.waiting;
    this.waiting = undefined;
    waiter?.({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        const item = this.items.shift();
        if (item !== undefined) return Promise.resolve({ value: item, done: false });
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => {
          this.waiting = resolve;
        });
      },
    };
  }

  /** The next item, waiting for one if there is none; rejects once the queue has ended and is empty. */
  async next(): Promise<T> {
    const result = await this[Symbol.asyncIterator]().next();
    if (result.done) throw new Error('the queue has ended');
    return result.value;
  }
}

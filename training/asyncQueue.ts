/** A queue whose readers wait for the next item; a failure rejects the waiting readers and every later read. */
export class AsyncQueue<T> {
  private readonly items: T[] = [];
  private readonly waiting: { resolve: (item: T) => void; reject: (error: Error) => void }[] = [];
  private failure: Error | null = null;

  push(item: T): void {
    const reader = this.waiting.shift();
    if (reader) reader.resolve(item);
    else this.items.push(item);
  }

  fail(error: Error): void {
    this.failure ??= error;
    for (const reader of this.waiting.splice(0)) reader.reject(error);
  }

  next(): Promise<T> {
    if (this.items.length > 0) return Promise.resolve(this.items.shift() as T);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }
}

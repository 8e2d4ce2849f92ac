/** Keeps the newest `max` items, the oldest going first: a log a long session cannot grow without bound. */
export class BoundedList<T> {
  #items: T[] = []

  constructor(readonly max: number) {}

  add<U extends T>(item: U): U {
    this.#items.push(item)
    if (this.#items.length > this.max) this.#items.splice(0, this.#items.length - this.max)
    return item
  }

  list(): T[] {
    return [...this.#items]
  }

  clear(): void {
    this.#items = []
  }
}


/** One entry of a {@link DeadlineQueue}: what runs at `at` (`performance.now()` time) unless removed first. */
export interface Deadline {
  /** When it is due. */
  readonly at: number;
  /** Its place in the heap, -1 once it ran or was removed. */
  index: number;
  fire(): void;
}

/**
 * Every call's deadline in one structure: a binary min-heap by time and one timer, armed for the earliest entry. A
 * call adds its deadline when it starts and removes it when it ends; neither touches the timer unless the earliest
 * deadline moves earlier (a timer per call cost each call a setTimeout and a clearTimeout, and the timer list's
 * bookkeeping, on the host's main thread). A timer that fires with nothing due re-arms for the earliest entry.
 * Calls made one after another each add a later deadline than the armed one: no timer is touched at all.
 */
export class DeadlineQueue {
  readonly #heap: Deadline[] = [];
  #timer: NodeJS.Timeout | undefined;
  /** The time the timer is armed for; Infinity when none is. */
  #armedFor = Number.POSITIVE_INFINITY;
  readonly #onTimer = (): void => this.#expire();

  /** Entries waiting. */
  get size(): number {
    return this.#heap.length;
  }

  /** Queues `entry` (its `index` is set here). */
  add(entry: Deadline): void {
    entry.index = this.#heap.length;
    this.#heap.push(entry);
    this.#up(entry.index);
    if (entry.at < this.#armedFor) this.#arm(entry.at);
  }

  /** Takes `entry` out; nothing happens if it ran or was removed already. */
  remove(entry: Deadline): void {
    const { index } = entry;
    if (index < 0) return;
    entry.index = -1;
    const last = this.#heap.pop() as Deadline;
    if (last !== entry) {
      this.#heap[index] = last;
      last.index = index;
      this.#down(index);
      this.#up(last.index);
    }
    // The timer stays armed, even with nothing left: should it fire early it finds nothing due and re-arms for the
    // earliest entry (if any), cheaper than clearing and setting it at every call. It is unref'ed: the work of a call
    // keeps the process alive, a deadline alone does not.
  }

  #expire(): void {
    this.#timer = undefined;
    this.#armedFor = Number.POSITIVE_INFINITY;
    const now = performance.now();
    while (this.#heap.length > 0 && (this.#heap[0] as Deadline).at <= now) {
      const due = this.#heap[0] as Deadline;
      this.remove(due);
      due.fire();
    }
    const next = this.#heap[0];
    if (next !== undefined && next.at < this.#armedFor) this.#arm(next.at);
  }

  #arm(at: number): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#armedFor = at;
    // setTimeout's delay is a 32-bit integer of milliseconds; a deadline further out re-arms when the timer fires.
    this.#timer = setTimeout(this.#onTimer, Math.min(2_147_483_647, Math.max(0, Math.ceil(at - performance.now()))));
    this.#timer.unref();
  }

  #up(index: number): void {
    const heap = this.#heap;
    const entry = heap[index] as Deadline;
    while (index > 0) {
      const parentIndex = (index - 1) >> 1;
      const parent = heap[parentIndex] as Deadline;
      if (parent.at <= entry.at) break;
      heap[index] = parent;
      parent.index = index;
      index = parentIndex;
    }
    heap[index] = entry;
    entry.index = index;
  }

  #down(index: number): void {
    const heap = this.#heap;
    const entry = heap[index] as Deadline;
    const half = heap.length >> 1;
    while (index < half) {
      let childIndex = 2 * index + 1;
      let child = heap[childIndex] as Deadline;
      const right = heap[childIndex + 1];
      if (right !== undefined && right.at < child.at) {
        childIndex += 1;
        child = right;
      }
      if (entry.at <= child.at) break;
      heap[index] = child;
      child.index = index;
      index = childIndex;
    }
    heap[index] = entry;
    entry.index = index;
  }
}

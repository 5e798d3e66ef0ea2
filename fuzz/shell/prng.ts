/** A small seeded PRNG (mulberry32): the same seed gives the same commands on every machine. */
export class Rng {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** One element chosen by weight: entries are [weight, value]. */
  weighted<T>(entries: readonly (readonly [number, T])[]): T {
    const total = entries.reduce((s, [w]) => s + w, 0);
    let r = this.next() * total;
    for (const [w, v] of entries) {
      r -= w;
      if (r < 0) return v;
    }
    return (entries[entries.length - 1] as readonly [number, T])[1];
  }
}

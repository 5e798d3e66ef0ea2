// Starting a few hundred workers at once on 2 cores stalls every one of them; a few at a time, like session opens.
const BATCH = 8;

/** Runs `start` `count` times, `BATCH` at a time, and returns the results in order. */
export async function startInBatches<T>(count: number, start: (index: number) => Promise<T>): Promise<T[]> {
  const started: T[] = [];
  for (let first = 0; first < count; first += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, count - first) }, (_, offset) => start(first + offset));
    started.push(...(await Promise.all(batch)));
  }
  return started;
}

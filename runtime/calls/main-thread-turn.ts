/**
 * Turns for the broker's synchronous work on the host's main thread. The broker runs in the host's event loop, and
 * under load (many sessions' reads, writes and command checks arriving together) it held that loop for tens of
 * milliseconds at a stretch, so the host's own timers and sockets waited. Each admission and each broker request
 * first takes a turn: within the current slice (at most {@link SLICE_MS} of one phase of the loop's pass) it runs at
 * once, with no promise and no reordering; past it, it waits for a later pass, so the loop runs its timers and I/O
 * between slices. Nothing is skipped or checked less: the same work runs, later.
 */
const SLICE_MS = 3;

let sliceStartedAt: number | undefined;

/** Undefined when the work may run now; else a promise that resolves at its turn. */
export function mainThreadTurn(): Promise<void> | undefined {
  return withinSlice() ? undefined : waitForTurn();
}

// Each waiter resumes in an immediate of its own: Node runs every microtask it queues before the next immediate, so
// the slice is measured after the whole of the work it let in. Immediates queued now run in the next pass, after
// its timers and I/O, and in the order they were queued.
async function waitForTurn(): Promise<void> {
  do await new Promise<void>((resolve) => setImmediate(resolve));
  while (!withinSlice());
}

function withinSlice(): boolean {
  const now = performance.now();
  if (sliceStartedAt === undefined) {
    sliceStartedAt = now;
    // Queued before any waiter's immediate: the next check phase starts with a fresh slice for the waiters.
    setImmediate(endSlice);
  }
  return now - sliceStartedAt < SLICE_MS;
}

function endSlice(): void {
  sliceStartedAt = undefined;
}

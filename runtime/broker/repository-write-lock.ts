/**
 * One queue, shared by every session of this process, for the file-tool writes that name a repository marker or a
 * code entry (see `namesBareRepositoryEntry`): each runs its embedded-bare-repository check again and writes while it
 * holds its turn, so two writes harmless alone (`sub/config` and the `sub/refs` completing HEAD + objects + refs)
 * cannot both pass a check made before the other landed. Such writes are rare; every other write never waits here.
 */
let tail: Promise<void> = Promise.resolve();

/** Runs `work` after every earlier holder's work has settled, and before any later one starts. */
export async function withRepositoryWriteTurn<T>(work: () => Promise<T>): Promise<T> {
  const previous = tail;
  let release!: () => void;
  tail = new Promise<void>((resolve) => (release = resolve));
  await previous;
  try {
    return await work();
  } finally {
    release();
  }
}

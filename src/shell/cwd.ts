import { posix } from 'node:path';

/** The working directories a point of the script may run in; null stands for one the check cannot know. */
export type Cwds = readonly (string | null)[];

/** Where the script may be after a construct: when it succeeded, and when it failed (for `&&` and `||`). */
export interface Outcome {
  ok: Cwds;
  fail: Cwds;
}

// Past this many alternatives the set is collapsed to "unknown" so branching scripts stay cheap to analyse.
const MAX_CWDS = 8;

/** The union of working-directory sets, collapsed to unknown when it grows too large. */
export function unionCwds(...sets: Cwds[]): Cwds {
  const all = [...new Set(sets.flat())];
  return all.length > MAX_CWDS ? [null] : all;
}

/** Whether two sets hold the same directories. */
export function sameCwds(a: Cwds, b: Cwds): boolean {
  return a.length === b.length && a.every((c) => b.includes(c));
}

/** An outcome that leaves the working directory as it was, whatever the result. */
export function unchanged(cwds: Cwds): Outcome {
  return { ok: cwds, fail: cwds };
}

/** The directory `target` names from `cwd`, lexically (symlinks are the resolver's business). */
export function resolveFrom(cwd: string, target: string): string {
  return posix.resolve(cwd, target);
}

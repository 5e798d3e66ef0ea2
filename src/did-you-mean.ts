/** Shortest name a prefix suggestion is made for: `--s` says too little to point at `--sandbox`. */
const MIN_PREFIX_CHARS = 4;

/**
 * The candidate closest to `name`, when it is close enough to be a typo (case-insensitive): at most 2 edits (a swap
 * of two neighbouring letters is one) and fewer than half of the name's length; else the one candidate that `name`
 * begins, a cut-short name (`--shutdown-grace` for `--shutdown-grace-ms`). `undefined` when none is.
 * @example closestName('bsh', ['bash', 'grep']) // 'bash'
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  const lower = name.toLowerCase();
  const all = [...candidates];
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of all) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance <= 2 && distance * 2 < Math.max(name.length, 2) && (best === undefined || distance < best.distance)) best = { candidate, distance };
  }
  if (best !== undefined || name.length < MIN_PREFIX_CHARS) return best?.candidate;
  const longer = all.filter((candidate) => candidate.length > name.length && candidate.toLowerCase().startsWith(lower));
  return longer.length === 1 ? longer[0] : undefined;
}

/** `; did you mean 'x'?` for a close candidate, or the empty string. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const close = closestName(name, candidates);
  return close === undefined ? '' : `; did you mean '${close}'?`;
}

// Edit distance over UTF-16 units where inserting, deleting, replacing or swapping two neighbours costs one (optimal
// string alignment), three rows: names here are short.
function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      let cost = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cost = Math.min(cost, before[j - 2]! + 1);
      current[j] = cost;
    }
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}

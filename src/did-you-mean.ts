/**
 * The candidate closest to `name` by edit distance (case-insensitive), when it is close enough to be a typo:
 * at most 2 edits, and fewer than half of the name's length.
 * @example closestName('bsh', ['bash', 'grep']) // 'bash'
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance <= 2 && distance * 2 < Math.max(name.length, 2) && (best === undefined || distance < best.distance)) best = { candidate, distance };
  }
  return best?.candidate;
}

/** `; did you mean 'x'?` for a close candidate, or the empty string. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const close = closestName(name, candidates);
  return close === undefined ? '' : `; did you mean '${close}'?`;
}

// Levenshtein distance over UTF-16 units, two rows: names here are short.
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** Misses of the rare byte tolerated in one buffer before the search falls back to a full substring search. */
const MAX_FALSE_HITS = 8;

// How common an ASCII byte is in source code and prose, most common first: a guess that only steers speed, never
// the result. Bytes not listed (other punctuation, control characters) count as rarer than all of these.
const COMMON_FIRST = ' etaoinsrlhdcumfpgywbvkxjqz\n.,;()=_"\'/-:{}ETAOINSRLHDCUMFPGYWBVKXJQZ0123456789';

/**
 * Tests buffers for the ASCII `literal` by its rarest byte: `indexOf` of one byte is a memchr, far faster than a
 * substring search, and each hit is checked in place. A buffer where that byte turns out common falls back to
 * `Buffer.includes` after a few misses, so the worst case stays near a plain substring search.
 * @example const has = literalSearch('needle_'); has(Buffer.from('a needle_1')) // true
 */
export function literalSearch(literal: string): (bytes: Buffer) => boolean {
  const needle = Buffer.from(literal, 'latin1');
  const at = rarestIndex(literal);
  const rare = needle[at] as number;
  const after = needle.length - at;
  return (bytes) => {
    let misses = 0;
    for (let hit = bytes.indexOf(rare, at); hit !== -1 && hit + after <= bytes.length; hit = bytes.indexOf(rare, hit + 1)) {
      if (bytes.compare(needle, 0, needle.length, hit - at, hit + after) === 0) return true;
      misses += 1;
      if (misses > MAX_FALSE_HITS) return bytes.includes(needle, hit + 1 - at);
    }
    return false;
  };
}

function rarestIndex(literal: string): number {
  let best = 0;
  let bestRank = -1;
  for (let i = 0; i < literal.length; i += 1) {
    const found = COMMON_FIRST.indexOf(literal[i] as string);
    const rank = found === -1 ? COMMON_FIRST.length : found;
    if (rank > bestRank) {
      best = i;
      bestRank = rank;
    }
  }
  return best;
}

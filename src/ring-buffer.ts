const COALESCE_UNITS = 8192;

/** A page of buffered output: `text` starts at `startOffset`; ask for `nextOffset` next time. */
export interface RingBufferPage {
  text: string;
  startOffset: number;
  nextOffset: number;
  /** The requested offset had already been dropped from the head; `text` starts at the oldest kept character. */
  truncated: boolean;
}

/**
 * Keeps the last `capacity` characters of a stream of text, addressed by absolute offsets that only grow.
 *
 * Offsets and capacity count UTF-16 code units (JavaScript string length), so they match `text.length`.
 * A surrogate pair is never split: the head drops whole characters (it may then hold `capacity - 1` units),
 * and a page never starts or ends between the two halves of a pair.
 */
export class OutputRingBuffer {
  readonly capacity: number;
  // Whole appended chunks, oldest first; `head` units of chunks[0] are already dropped.
  private readonly chunks: string[] = [];
  private head = 0;
  private start = 0;
  private end = 0;

  /** @param capacity the most UTF-16 code units kept; at least 2 so a surrogate pair always fits. */
  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 2) {
      throw new RangeError(`OutputRingBuffer capacity ${capacity} must be an integer of at least 2`);
    }
    this.capacity = capacity;
  }

  /** The absolute offset of the oldest character still kept. */
  get startOffset(): number {
    return this.start;
  }

  /** The absolute offset just past the newest character. */
  get endOffset(): number {
    return this.end;
  }

  /** Adds text at the tail, dropping whole characters from the head past capacity. */
  append(text: string): void {
    if (text.length === 0) return;
    const last = this.chunks.length - 1;
    // Coalesce small writes so lookups walk few chunks.
    if (last >= 0 && (this.chunks[last] as string).length + text.length <= COALESCE_UNITS) this.chunks[last] += text;
    else this.chunks.push(text);
    this.end += text.length;
    let excess = this.end - this.start - this.capacity;
    if (excess <= 0) return;
    if (this.splitsPair(this.start + excess)) excess += 1;
    this.dropHead(excess);
  }

  /**
   * Reads up to `limit` units from `offset` (default: the oldest kept). An offset before the head is clamped
   * to it and flagged `truncated`; an offset past the tail gives empty text. A page never splits a pair:
   * its end moves back one unit, or forward when that would leave it empty.
   */
  read(offset?: number, limit?: number): RingBufferPage {
    const requested = offset ?? this.start;
    if (!Number.isInteger(requested) || requested < 0) throw new RangeError(`offset ${offset} must be a non-negative integer`);
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw new RangeError(`limit ${limit} must be a positive integer`);
    const truncated = requested < this.start;
    let from = Math.min(Math.max(requested, this.start), this.end);
    if (from > this.start && this.splitsPair(from)) from -= 1;
    let to = limit === undefined ? this.end : Math.min(this.end, from + limit);
    if (this.splitsPair(to)) to += to - 1 > from ? -1 : 1;
    return { text: this.slice(from, to), startOffset: from, nextOffset: to, truncated };
  }

  private splitsPair(offset: number): boolean {
    return offset > this.start && offset < this.end && isLowSurrogate(this.charCodeAt(offset)) && isHighSurrogate(this.charCodeAt(offset - 1));
  }

  private dropHead(count: number): void {
    this.start += count;
    let remaining = count + this.head;
    while (this.chunks.length > 0 && remaining >= (this.chunks[0] as string).length) {
      remaining -= (this.chunks.shift() as string).length;
    }
    this.head = remaining;
  }

  private charCodeAt(offset: number): number {
    let rel = offset - this.start + this.head;
    for (const chunk of this.chunks) {
      if (rel < chunk.length) return chunk.charCodeAt(rel);
      rel -= chunk.length;
    }
    return NaN;
  }

  private slice(from: number, to: number): string {
    const parts: string[] = [];
    let rel = from - this.start + this.head;
    let want = to - from;
    for (const chunk of this.chunks) {
      if (want <= 0) break;
      if (rel >= chunk.length) {
        rel -= chunk.length;
        continue;
      }
      const piece = chunk.slice(rel, rel + want);
      parts.push(piece);
      want -= piece.length;
      rel = 0;
    }
    return parts.join('');
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

import type { Readable } from 'node:stream';
import iconv from 'iconv-lite';

/**
 * Decodes a byte stream with an iconv-lite streaming decoder, so a multibyte character split across chunks
 * comes out whole, and hands each piece of text to `onText`. Resolves once the stream has ended or closed.
 */
export function decodeStream(stream: Readable | null | undefined, encoding: string, onText: (text: string) => void): Promise<void> {
  if (!stream) return Promise.resolve();
  const decoder = iconv.getDecoder(encoding);
  return new Promise((resolve) => {
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      const rest = decoder.end();
      if (rest) onText(rest);
      resolve();
    };
    stream.on('data', (chunk: Buffer) => {
      const text = decoder.write(chunk);
      if (text) onText(text);
    });
    stream.once('end', finish);
    stream.once('close', finish);
    stream.once('error', finish);
  });
}

/** Keeps the first `max` UTF-16 units of a text stream (never half a surrogate pair) and counts the rest. */
export class CappedText {
  private readonly parts: string[] = [];
  private kept = 0;
  private droppedUnits = 0;

  constructor(private readonly max: number) {}

  /** Adds text; whatever does not fit is counted as dropped. */
  append(text: string): void {
    const room = this.max - this.kept;
    if (room <= 0 || this.droppedUnits > 0) {
      this.droppedUnits += text.length;
      return;
    }
    let take = Math.min(room, text.length);
    if (take < text.length && isHighSurrogate(text.charCodeAt(take - 1))) take -= 1;
    this.parts.push(text.slice(0, take));
    this.kept += take;
    this.droppedUnits += text.length - take;
  }

  /** The kept text. */
  get text(): string {
    return this.parts.join('');
  }

  /** UTF-16 units dropped past the cap. */
  get dropped(): number {
    return this.droppedUnits;
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

import { Transform, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';

// Undoing the content codings of a response whose body must be looked into (credential hosts): gzip, deflate (zlib
// or raw, as servers send both) and br. Anything else cannot be looked into, so such a response is refused.

/** The codings of a response, outermost last (`content-encoding: gzip, br` was gzipped, then brotli'd). */
export function codingsOf(headers: { readonly [name: string]: string | string[] | undefined }): string[] {
  const listed = (name: string): string[] =>
    String(headers[name] ?? '')
      .split(',')
      .map((coding) => coding.trim().toLowerCase())
      .filter((coding) => coding !== '' && coding !== 'identity' && coding !== 'chunked');
  return [...listed('content-encoding'), ...listed('transfer-encoding')];
}

/**
 * Decoders for `codings`, to apply in the order returned (the last coding first), or the first coding no decoder
 * exists for.
 */
export function decodersFor(codings: readonly string[]): Transform[] | { readonly unsupported: string } {
  const decoders: Transform[] = [];
  for (const coding of [...codings].reverse()) {
    if (coding === 'gzip' || coding === 'x-gzip') decoders.push(zlib.createGunzip());
    else if (coding === 'br') decoders.push(zlib.createBrotliDecompress());
    else if (coding === 'deflate') decoders.push(new DeflateDecoder());
    else return { unsupported: coding };
  }
  return decoders;
}

/** `deflate` as RFC 9110 means it (zlib) or as some servers send it (raw), told apart by the zlib header. */
class DeflateDecoder extends Transform {
  #inner: zlib.Inflate | zlib.InflateRaw | undefined;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.#inner === undefined) {
      const [first = 0, second = 0] = chunk;
      const zlibHeader = (first & 0x0f) === 8 && ((first << 8) | second) % 31 === 0;
      this.#inner = zlibHeader ? zlib.createInflate() : zlib.createInflateRaw();
      this.#inner.on('data', (data: Buffer) => this.push(data));
      this.#inner.on('error', (error) => this.destroy(error));
    }
    this.#inner.write(chunk, () => callback());
  }

  override _flush(callback: TransformCallback): void {
    if (this.#inner === undefined) return callback();
    this.#inner.once('end', () => callback());
    this.#inner.end();
  }
}

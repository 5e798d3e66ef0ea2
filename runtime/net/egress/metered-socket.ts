import net, { type Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { ToolwardenError } from '../../../src/errors.js';
import type { VettedTarget } from '../resolve-vetted.js';

// The one way the egress proxy opens a connection out: to a vetted target only, every byte both ways counted against
// the session's budget before it moves. A chunk the budget cannot carry is not sent (or not handed on) and the
// connection is cut, so the outside never exchanges more than the cap with the session.

/** Asks the session's budget for `n` bytes; false when they would pass it. */
export type TakeBytes = (n: number) => boolean;

/** A connection to a vetted address and port whose bytes are counted before they move. */
export class MeteredSocket extends Duplex {
  /** Bytes written out and read in so far (TLS records for an intercepted host). */
  bytesOut = 0;
  bytesIn = 0;
  readonly #raw: Socket;
  readonly #take: TakeBytes;
  #cut = false;
  #connected = false;

  constructor(target: VettedTarget, take: TakeBytes) {
    super();
    this.#take = take;
    this.#raw = net.connect({ host: target.address, port: target.authority.port });
    this.#raw.once('connect', () => {
      this.#connected = true;
      this.emit('connect');
    });
    this.#raw.on('data', (chunk: Buffer) => {
      if (!this.#allow(chunk.byteLength)) return;
      this.bytesIn += chunk.byteLength;
      if (!this.push(chunk)) this.#raw.pause();
    });
    this.#raw.once('end', () => this.push(null));
    this.#raw.once('error', (error) => this.destroy(error));
    this.#raw.once('close', () => this.destroy());
  }

  /** Whether the budget ran out on this connection. */
  get cut(): boolean {
    return this.#cut;
  }

  /** Whether the connection to the target was ever made. */
  get connected(): boolean {
    return this.#connected;
  }

  override _read(): void {
    this.#raw.resume();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (!this.#allow(chunk.byteLength)) return callback();
    this.bytesOut += chunk.byteLength;
    this.#raw.write(chunk, callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.#raw.end();
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#raw.destroy();
    callback(error);
  }

  #allow(n: number): boolean {
    if (this.#cut || this.destroyed) return false;
    if (this.#take(n)) return true;
    this.#cut = true;
    this.destroy(new ToolwardenError('EGRESS_LIMIT', 'egress: the session has moved its bytes (limits.egressMaxBytes)'));
    return false;
  }
}

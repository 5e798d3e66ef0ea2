import type { WalkIo } from './walk-io.js';

/** Bytes inspected for a NUL to call a file binary, as git and ripgrep do. */
const BINARY_PROBE_BYTES = 8192;
/** The reader's first buffer; it grows to the largest file read, up to the walk's size limit. */
const FIRST_BUFFER_BYTES = 64 * 1024;

/**
 * Reads the text files of one walk through one buffer, reused from file to file (a walk reads thousands of small files;
 * a buffer each is garbage the thread must collect).
 */
export class TextReader {
  readonly #io: WalkIo;
  readonly #maxBytes: number;
  #buffer: Buffer | undefined;

  constructor(io: WalkIo, maxBytes: number) {
    this.#io = io;
    this.#maxBytes = maxBytes;
  }

  /**
   * Reads the open file `fd` and closes it: its bytes, as a view of this reader's buffer valid until its next read.
   * Undefined when it is not a regular file, is larger than the limit, has a NUL byte in its first 8 KiB (binary, so
   * not text), or cannot be read.
   */
  read(fd: number): Buffer | undefined {
    const io = this.#io;
    try {
      const size = io.regularFileSize(fd);
      if (size < 0 || size > this.#maxBytes) return undefined;
      const buffer = this.#bufferFor(size);
      let length = 0;
      while (length < size) {
        const read = io.read(fd, buffer, length, size - length);
        if (read < 0) return undefined;
        if (read === 0) break;
        length += read;
      }
      if (buffer.subarray(0, Math.min(length, BINARY_PROBE_BYTES)).includes(0)) return undefined;
      return buffer.subarray(0, length);
    } finally {
      io.close(fd);
    }
  }

  #bufferFor(size: number): Buffer {
    if (this.#buffer === undefined || this.#buffer.length < size) {
      const grown = Math.min(this.#maxBytes, Math.max(FIRST_BUFFER_BYTES, (this.#buffer?.length ?? 0) * 2));
      this.#buffer = Buffer.allocUnsafe(Math.max(size, grown));
    }
    return this.#buffer;
  }
}

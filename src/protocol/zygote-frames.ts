/**
 * The byte framing between the runtime and a session's sandbox zygote (runtime/sandbox/zygote-main.ts). The zygote
 * runs where sandboxed commands can tamper with it, so the runtime decodes its stream with hard bounds: a frame is
 * `[u32 BE payload length][u32 BE header length][header JSON][data bytes]`, at most {@link MAX_FRAME_BYTES} long,
 * and anything else is a {@link FrameError} (the runtime then kills the zygote). Nothing is buffered past one frame.
 */

/** The largest payload a frame may carry, either way. Output is sent in pipe-sized chunks far below it. */
export const MAX_FRAME_BYTES = 1024 * 1024;

/** A decoded frame: its JSON header (not yet validated) and its data bytes (empty when none). */
export interface Frame {
  readonly header: unknown;
  readonly data: Uint8Array;
}

/** The stream broke the framing: a length past the bound, a header longer than its frame, or bad JSON. */
export class FrameError extends Error {
  override readonly name = 'FrameError';
}

const PREFIX = 8;

/** One frame's bytes; throws FrameError when it would exceed {@link MAX_FRAME_BYTES}. */
export function encodeFrame(header: unknown, data: Uint8Array = new Uint8Array(0)): Buffer {
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const payload = 4 + json.length + data.length;
  if (payload > MAX_FRAME_BYTES) throw new FrameError(`a frame of ${payload} bytes is over the ${MAX_FRAME_BYTES}-byte bound`);
  const frame = Buffer.allocUnsafe(4 + payload);
  frame.writeUInt32BE(payload, 0);
  frame.writeUInt32BE(json.length, 4);
  json.copy(frame, PREFIX);
  frame.set(data, PREFIX + json.length);
  return frame;
}

/**
 * Splits a byte stream into frames. It holds at most one partial frame (bounded by {@link MAX_FRAME_BYTES}): a
 * length past the bound fails at once, before any of that frame's bytes are kept.
 */
export class FrameDecoder {
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #broken = false;

  /** The frames completed by `chunk`; throws FrameError (and stays broken) on a violation. */
  push(chunk: Uint8Array): Frame[] {
    if (this.#broken) throw new FrameError('the stream already broke its framing');
    this.#pending.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    this.#pendingBytes += chunk.byteLength;
    const frames: Frame[] = [];
    try {
      for (let frame = this.#next(); frame !== undefined; frame = this.#next()) frames.push(frame);
    } catch (error) {
      this.#broken = true;
      this.#pending = [];
      this.#pendingBytes = 0;
      throw error;
    }
    return frames;
  }

  #next(): Frame | undefined {
    if (this.#pendingBytes < 4) return undefined;
    const head = this.#peek(PREFIX);
    const payload = head.readUInt32BE(0);
    if (payload > MAX_FRAME_BYTES) throw new FrameError(`a frame announced ${payload} bytes, over the ${MAX_FRAME_BYTES}-byte bound`);
    if (payload < 4) throw new FrameError(`a frame announced ${payload} bytes, too short for its header length`);
    if (this.#pendingBytes < 4 + payload) return undefined;
    const bytes = this.#take(4 + payload);
    const headerLength = bytes.readUInt32BE(4);
    if (headerLength > payload - 4) throw new FrameError(`a frame's header of ${headerLength} bytes is longer than its frame`);
    let header: unknown;
    try {
      header = JSON.parse(bytes.toString('utf8', PREFIX, PREFIX + headerLength));
    } catch {
      throw new FrameError('a frame header is not JSON');
    }
    return { header, data: bytes.subarray(PREFIX + headerLength) };
  }

  #peek(bytes: number): Buffer {
    const joined = this.#pending.length === 1 ? this.#pending[0] as Buffer : Buffer.concat(this.#pending);
    this.#pending = [joined];
    return joined.length >= bytes ? joined : Buffer.concat([joined, Buffer.alloc(bytes - joined.length)]);
  }

  #take(bytes: number): Buffer {
    const joined = Buffer.concat(this.#pending);
    const rest = joined.subarray(bytes);
    this.#pending = rest.length > 0 ? [rest] : [];
    this.#pendingBytes = rest.length;
    return joined.subarray(0, bytes);
  }
}
